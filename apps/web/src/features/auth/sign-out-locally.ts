import { removeStored, storageKeys, type StorageKey } from '../../lib/storage-keys';

// The flags sign-out clears (docs/product.md §4), plus the lead's challenge token, which
// belongs to the lead e-mail and is useless without it. `signOut` adds the server session.
const signedInKeys: readonly StorageKey[] = [
  storageKeys.onboardingComplete,
  storageKeys.userEmail,
  storageKeys.userGoal,
  storageKeys.leadEmail,
  storageKeys.userRole,
  storageKeys.landingRolePreference,
  storageKeys.magicLinkAuth,
  storageKeys.coachApproved,
  storageKeys.leadChallengeToken,
];

export function signOutLocally(): void {
  for (const key of signedInKeys) removeStored(key);
}
