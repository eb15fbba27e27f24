import { removeStored, storageKeys } from '../../lib/storage-keys';

// Everything the SPA keeps in localStorage belongs to the person signed in (the flags of docs/product.md §4, their
// onboarding draft, DITL, home snapshot and lead token), so every sign-out path leaves none of it to the next person
// on the device. `signOut` adds the server session.
export function signOutLocally(): void {
  for (const key of Object.values(storageKeys)) removeStored(key);
}
