import { type OnboardingAnswersInput, onboardingAnswersSchema } from '@spark/contracts';
import type { OnboardingDraft } from './onboarding-draft';

export const onboardingSteps = [
  { title: "Let's get to know you", description: 'What should we call you?' },
  { title: 'Your transformation goal', description: 'What do you want to change in the next 90 days?' },
  { title: 'A few details', description: 'This helps us size habits to your life.' },
  { title: 'Your daily reality', description: 'Where your days go, and what gets in the way.' },
] as const;

export type FieldErrors = Partial<Record<keyof OnboardingDraft, string>>;

const blank = (value: string) => value.trim() === '';

/** Spec section 5: what each step needs before Continue moves on. */
export function validateStep(step: number, draft: OnboardingDraft): FieldErrors {
  const errors: FieldErrors = {};
  if (step === 0 && blank(draft.firstName)) errors.firstName = 'Please tell us your first name';
  if (step === 1 && blank(draft.transformationGoal)) errors.transformationGoal = 'Please share your goal';
  if (step === 2) {
    const age = Number(draft.age);
    if (blank(draft.age) || !Number.isInteger(age) || age < 18 || age > 100) errors.age = 'Please enter an age from 18 to 100';
    if (!draft.activityLevel) errors.activityLevel = 'Please choose your activity level';
  }
  if (step === 3) {
    if (blank(draft.typicalDay)) errors.typicalDay = 'Please describe your typical day';
    if (blank(draft.biggestChallenge)) errors.biggestChallenge = 'Please share your biggest challenge';
  }
  return errors;
}

/** The first step that is not complete, or -1 when every step is (checked again at submit time). */
export function firstIncompleteStep(draft: OnboardingDraft): number {
  return onboardingSteps.findIndex((_, step) => Object.keys(validateStep(step, draft)).length > 0);
}

const optional = (value: string) => (value.trim() ? value.trim() : undefined);

/** The draft as the API's body; optional blanks are left out so the server applies its defaults. */
export function toAnswers(draft: OnboardingDraft): OnboardingAnswersInput {
  const answers = {
    firstName: draft.firstName.trim(),
    lastName: optional(draft.lastName),
    transformationGoal: draft.transformationGoal.trim(),
    goalTags: draft.goalTags,
    age: Number(draft.age),
    activityLevel: draft.activityLevel,
    gender: optional(draft.gender),
    occupation: optional(draft.occupation),
    familyStatus: optional(draft.familyStatus),
    typicalDay: draft.typicalDay.trim(),
    biggestChallenge: draft.biggestChallenge.trim(),
    currentWin: optional(draft.currentWin),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  // Checked with the same schema the gateway uses, so a draft that passes here passes there.
  return onboardingAnswersSchema.parse(answers);
}
