import { removeStored, storageKeys, type StorageKey } from '../../lib/storage-keys';

// The flags the spec's sign-out clears. The sign-in issue adds the server session on top.
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
