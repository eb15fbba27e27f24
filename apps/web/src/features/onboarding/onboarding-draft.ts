import type { ActivityLevel, GoalTag } from '@spark/contracts';
import { readStored, removeStored, storageKeys, writeStored } from '../../lib/storage-keys';

/** The answers as typed (strings, so half-filled fields survive a reload); parsed only on submit. */
export interface OnboardingDraft {
  firstName: string;
  lastName: string;
  transformationGoal: string;
  goalTags: GoalTag[];
  age: string;
  activityLevel: ActivityLevel | '';
  gender: string;
  occupation: string;
  familyStatus: string;
  typicalDay: string;
  biggestChallenge: string;
  currentWin: string;
}

export const emptyDraft: OnboardingDraft = {
  firstName: '',
  lastName: '',
  transformationGoal: '',
  goalTags: [],
  age: '',
  activityLevel: '',
  gender: '',
  occupation: '',
  familyStatus: '',
  typicalDay: '',
  biggestChallenge: '',
  currentWin: '',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The draft `userId` saved, merged over empty answers; the goal from /goal pre-fills step 2. A draft saved by someone
 * else on this browser (who never signed out) is not theirs to see or submit, so it counts as none.
 */
export function loadDraft(userId: string): OnboardingDraft {
  const goal = readStored(storageKeys.userGoal) ?? '';
  try {
    const saved: unknown = JSON.parse(readStored(storageKeys.onboardingData) ?? 'null');
    if (!isRecord(saved) || saved.userId !== userId || !isRecord(saved.answers)) return { ...emptyDraft, transformationGoal: goal };
    const merged = { ...emptyDraft, transformationGoal: goal };
    for (const key of Object.keys(emptyDraft) as (keyof OnboardingDraft)[]) {
      const value = saved.answers[key];
      // An empty saved answer does not hide the goal written on /goal.
      if (key === 'goalTags' ? Array.isArray(value) : typeof value === 'string' && value !== '') Object.assign(merged, { [key]: value });
    }
    return merged;
  } catch {
    return { ...emptyDraft, transformationGoal: goal };
  }
}

export const saveDraft = (userId: string, answers: OnboardingDraft) => writeStored(storageKeys.onboardingData, JSON.stringify({ userId, answers }));
export const clearDraft = () => removeStored(storageKeys.onboardingData);
