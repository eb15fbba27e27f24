// Every localStorage key the SPA uses, in one place. The spark_* names come from docs/product.md §3
// and are read by flows other issues build, so they are never renamed. Each belongs to the person signed in:
// sign-out removes them all (sign-out-locally.ts).
export const storageKeys = {
  leadEmail: 'spark_lead_email',
  userRole: 'spark_user_role',
  onboardingComplete: 'spark_onboarding_complete',
  userEmail: 'spark_user_email',
  userGoal: 'spark_user_goal',
  landingRolePreference: 'spark_landing_role_preference',
  magicLinkAuth: 'spark_magic_link_auth',
  coachApproved: 'spark_coach_approved',
  leadChallengeToken: 'spark_lead_challenge_token',
  // The onboarding answers as a draft with its owner's id (kept across back/forward and reloads), and the DITL being generated.
  onboardingData: 'spark_onboarding_data',
  ditlGenerationId: 'spark_ditl_generation_id',
  // A DITL request the server could not take yet, with its owner's id and answers (features/ditl/pending-ditl-request.ts).
  ditlRequestPending: 'spark_ditl_request_pending',
  // The last home data seen and whose it is, so the client app opens offline.
  clientHomeSnapshot: 'spark_client_home',
} as const;

/** Kept for the device, not for the person signed in: sign-out leaves them. */
export const deviceKeys = {
  // A sign-out the server has not heard of yet: the refresh cookie stays unused until it has (features/session/pending-sign-out.ts).
  signOutPending: 'spark_sign_out_pending',
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys] | (typeof deviceKeys)[keyof typeof deviceKeys];

// Storage can throw (private mode, disabled cookies); a missing value is the safe answer.
export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the flow continues without persistence.
  }
}

export function removeStored(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Same as above.
  }
}
