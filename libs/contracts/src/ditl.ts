import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, uuidSchema, textSchema } from './common';
import { onboardingAnswersSchema } from './onboarding';
import { userRoleSchema } from './auth';

/** Spec section 4: queued and generating are "in progress"; completed carries a presentation URL. */
export const ditlStatuses = ['queued', 'generating', 'completed', 'failed'] as const;
export const ditlStatusSchema = z.enum(ditlStatuses);
export type DitlStatus = z.infer<typeof ditlStatusSchema>;

/** Spec section 9: the page polls every 3 s and gives up after 120 s. */
export const DITL_POLL_INTERVAL_MS = 3000;
export const DITL_POLL_TIMEOUT_MS = 120_000;

/** Body of `POST /api/ditl/generations` (the spec's generate-ditl: leadId, onboardingData; the e-mail comes from the session). */
export const generateDitlBodySchema = z
  .object({
    leadId: uuidSchema.optional(),
    onboardingData: onboardingAnswersSchema,
  })
  .strict();
export type GenerateDitlBody = z.input<typeof generateDitlBodySchema>;

/** `ditl.generate`: the gateway adds the signed-in owner. */
export const generateDitlRequestSchema = z
  .object({
    userId: uuidSchema,
    email: emailSchema,
    leadId: uuidSchema.optional(),
    answers: onboardingAnswersSchema,
  })
  .strict();

export const generateDitlResponseSchema = z.object({ generationId: uuidSchema });
export type GenerateDitlResponse = z.infer<typeof generateDitlResponseSchema>;

/** Who asks to read a generation: a client reads only its own, coaches and admins read any. */
export const ditlReaderSchema = z.object({ userId: uuidSchema, role: userRoleSchema });

export const checkDitlStatusRequestSchema = z.object({ generationId: uuidSchema, reader: ditlReaderSchema }).strict();

/** The spec's check-ditl-status answer. `presentationUrl` is an authenticated gateway path. */
export const ditlStatusResponseSchema = z.object({
  generationId: uuidSchema,
  status: ditlStatusSchema,
  progress: z.number().int().min(0).max(100),
  presentationUrl: z.string().nullable(),
  updatedAt: isoDateTimeSchema,
});
export type DitlStatusResponse = z.infer<typeof ditlStatusResponseSchema>;

/** The presentation page itself: self-contained HTML, every text escaped, no scripts. */
export const ditlPresentationResponseSchema = z.object({ html: z.string() });
export type DitlPresentationResponse = z.infer<typeof ditlPresentationResponseSchema>;

/** `ditl` queue, `generate-ditl` job: everything else is read from the stored request. */
export const generateDitlJobSchema = z.object({ generationId: uuidSchema });

/** `mail` queue, `ditl-ready` job: the e-mail with the link to the finished presentation. */
export const ditlReadyJobSchema = z.object({
  generationId: uuidSchema,
  email: emailSchema,
  firstName: textSchema(),
});

const line = (max: number) => z.string().min(1).max(max);

/**
 * The presentation's content, whichever planner wrote it. The model's structured output is
 * validated against this schema; anything else is rejected and the call retried.
 */
export const ditlPlanSchema = z
  .object({
    title: line(120),
    subtitle: line(300),
    slides: z
      .array(
        z
          .object({
            time: line(20),
            title: line(120),
            narrative: line(800),
            habit: line(300),
            sparkToCapture: line(300),
          })
          .strict(),
      )
      .min(4)
      .max(8),
    weeklyRhythm: z
      .object({ sundayAlignment: line(400), fridayCheckIn: line(400), rest: line(400) })
      .strict(),
    closing: line(600),
  })
  .strict();
export type DitlPlan = z.infer<typeof ditlPlanSchema>;
