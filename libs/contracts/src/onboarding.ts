import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, uuidSchema, textSchema } from './common';
import { timeZoneSchema } from './progress';

export const activityLevels = ['sedentary', 'lightly_active', 'moderately_active', 'very_active', 'extremely_active'] as const;
export const genders = ['male', 'female', 'non_binary', 'prefer_not_to_say'] as const;
export const familyStatuses = ['single', 'partnered', 'parent', 'caregiver', 'other'] as const;
export const goalTags = ['Weight Loss', 'Fitness', 'Strength', 'Nutrition', 'Sleep', 'Productivity', 'Energy', 'Stress', 'Other'] as const;

export type ActivityLevel = (typeof activityLevels)[number];
export type GoalTag = (typeof goalTags)[number];

/** Spec section 3: every optional demographic reads "Not specified" when left blank. */
export const NOT_SPECIFIED = 'Not specified';

const requiredText = (message: string, max = 2000) => textSchema({ error: message }).trim().min(1, message).max(max);
const optionalText = (max = 2000) => textSchema().trim().max(max).optional();

/**
 * What the four onboarding steps collect (docs/product.md §2 and §5). Optional fields may be absent;
 * the server fills section 3's defaults when it stores them.
 */
export const onboardingAnswersSchema = z
  .object({
    firstName: requiredText('Please tell us your first name', 100),
    lastName: optionalText(100),
    transformationGoal: requiredText('Please share your goal'),
    goalTags: z.array(z.enum(goalTags)).max(goalTags.length).default([]),
    age: z.coerce
      .number({ error: 'Age must be a number' })
      .int('Age must be a whole number')
      .min(18, 'You must be 18 to 100')
      .max(100, 'You must be 18 to 100'),
    activityLevel: z.enum(activityLevels, { error: 'Please choose your activity level' }),
    gender: z.enum(genders).optional(),
    occupation: optionalText(200),
    familyStatus: z.enum(familyStatuses).optional(),
    typicalDay: requiredText('Please describe your typical day'),
    biggestChallenge: requiredText('Please share your biggest challenge'),
    currentWin: optionalText(),
    // The device's IANA zone: "today" and every later day count are the client's own calendar days.
    timeZone: timeZoneSchema.optional(),
  })
  .strict();
export type OnboardingAnswers = z.output<typeof onboardingAnswersSchema>;
export type OnboardingAnswersInput = z.input<typeof onboardingAnswersSchema>;

/** The stored onboarding record, in the shape of docs/product.md §3 (snake_case, as it names it). */
export const onboardingDataSchema = z.object({
  user_id: uuidSchema,
  full_name: z.string(),
  transformation_goal: z.string(),
  typical_day: z.string(),
  biggest_challenge: z.string(),
  current_win: z.string(),
  goal_tags: z.array(z.string()),
  completed_at: isoDateTimeSchema,
  demographics: z.object({
    age: z.union([z.number(), z.literal(NOT_SPECIFIED)]),
    gender: z.string(),
    activity_level: z.string(),
    occupation: z.string(),
    family_status: z.string(),
  }),
  goalQuestions: z.object({
    primary_goal: z.string(),
    motivation: z.string(),
    biggest_challenge: z.string(),
    timeline: z.string(),
    support_system: z.string(),
  }),
  lifestyle: z.object({
    typical_day: z.string(),
    work_schedule: z.string(),
    stress_level: z.enum(['high', 'moderate']),
    stress_sources: z.string(),
    current_routine: z.string(),
  }),
  habits: z.object({
    current_habits: z.string(),
    habit_preferences: z.string(),
    tracking_preference: z.string(),
    accountability_preference: z.string(),
  }),
});
export type OnboardingData = z.infer<typeof onboardingDataSchema>;

/** `progress.complete-onboarding`: the gateway adds who is signed in; a second call replaces the answers. */
export const completeOnboardingRequestSchema = z.object({ userId: uuidSchema, email: emailSchema, answers: onboardingAnswersSchema }).strict();

export const evolutionSchema = z.object({
  evolutionNumber: z.number().int(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  status: z.string(),
});

export const completeOnboardingResponseSchema = z.object({
  onboarding: onboardingDataSchema,
  evolution: evolutionSchema,
});
export type CompleteOnboardingResponse = z.infer<typeof completeOnboardingResponseSchema>;

/** `POST /api/onboarding` answers with the saved record and the user's updated metadata. */
export const finishOnboardingResponseSchema = completeOnboardingResponseSchema.extend({
  onboardingCompletedAt: isoDateTimeSchema,
});
export type FinishOnboardingResponse = z.infer<typeof finishOnboardingResponseSchema>;
