import { removeStored, storageKeys } from '../../lib/storage-keys';

// Everything the SPA keeps in localStorage belongs to the person signed in (the flags of docs/product.md §4, their
// onboarding draft, DITL, home snapshot and lead token), so every sign-out path leaves none of it to the next person
// on the device. `signOut` adds the server session.
export function signOutLocally(): void {
  for (const key of Object.values(storageKeys)) removeStored(key);
}

/**
 * What the server showed the person and the device kept, so the client app opens offline (their home: name, progress,
 * the coach's note; their goal), and their onboarding answers waiting in a DITL request: once the server says their
 * session is over (signed out on every device, the account deleted, thirty days gone), it is not theirs to open or
 * send any more, whoever holds the device.
 */
export function forgetWhatTheSessionShowed(): void {
  removeStored(storageKeys.clientHomeSnapshot);
  removeStored(storageKeys.userGoal);
  removeStored(storageKeys.ditlRequestPending);
}
