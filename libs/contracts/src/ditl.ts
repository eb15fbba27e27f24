import { z } from 'zod';
import { emailSchema, isoDateTimeSchema, mailApprovalSchema, uuidSchema, textSchema } from './common';
import { onboardingAnswersSchema } from './onboarding';
import { userRoleSchema } from './auth';
import { customEvolutionDaysSchema } from './coach';
import { DEFAULT_EVOLUTION_DAYS } from './evolution';

/** Spec section 4: queued and generating are "in progress"; completed carries a presentation URL. */
export const ditlStatuses = ['queued', 'generating', 'completed', 'failed'] as const;
export const ditlStatusSchema = z.enum(ditlStatuses);
export type DitlStatus = z.infer<typeof ditlStatusSchema>;

/** Spec section 9: the page polls every 3 s and gives up after 120 s. */
export const DITL_POLL_INTERVAL_MS = 3000;
export const DITL_POLL_TIMEOUT_MS = 120_000;

/**
 * The id the device chose for one request of its client: every try of it carries it, and the ditl-service answers a
 * repeat with the generation it made for the first. Optional: a page of the release before sends none.
 */
const ditlRequestIdSchema = uuidSchema.optional();

/** Body of `POST /api/ditl/generations` (generate-ditl, docs/product.md §7: leadId, onboardingData; the e-mail comes from the session). */
export const generateDitlBodySchema = z
  .object({
    leadId: uuidSchema.optional(),
    onboardingData: onboardingAnswersSchema,
    requestId: ditlRequestIdSchema,
  })
  .strict();
export type GenerateDitlBody = z.input<typeof generateDitlBodySchema>;

/**
 * The length of the client's evolution that the presentation states, which the gateway reads from the client's progress
 * row, never from the client's request. A request sent by a gateway from before it did is read as the default.
 */
const evolutionDaysSchema = customEvolutionDaysSchema.default(DEFAULT_EVOLUTION_DAYS);

/** `ditl.generate`: the gateway adds the signed-in owner and the length of their evolution. */
export const generateDitlRequestSchema = z
  .object({
    userId: uuidSchema,
    email: emailSchema,
    leadId: uuidSchema.optional(),
    answers: onboardingAnswersSchema,
    /**
     * The gateway's statement for the notifier that the client asked for it at this address under the first name of
     * its answers (`libs/messaging/src/ditl-requests.ts`): the "Day in the Life is ready" e-mail carries it.
     */
    requested: mailApprovalSchema,
    evolutionDays: evolutionDaysSchema,
    requestId: ditlRequestIdSchema,
  })
  .strict();

export const generateDitlResponseSchema = z.object({ generationId: uuidSchema });
export type GenerateDitlResponse = z.infer<typeof generateDitlResponseSchema>;

/** Who asks to read a generation: a client reads only its own, coaches and admins read any. */
export const ditlReaderSchema = z.object({ userId: uuidSchema, role: userRoleSchema });

export const checkDitlStatusRequestSchema = z.object({ generationId: uuidSchema, reader: ditlReaderSchema }).strict();

/** The check-ditl-status answer (docs/product.md §7). `presentationUrl` is an authenticated gateway path. */
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
  /** As onboarding takes it: the greeting holds a name, never a text of the producer's own. */
  firstName: textSchema().max(100),
  /** The gateway's statement that the client asked for it at this address under this name (`generateDitlRequestSchema`). */
  requested: mailApprovalSchema,
});

const line = (max: number) => textSchema().min(1).max(max);

/**
 * What part of the client's day a slide is. With its place among the plan's slides of the same kind
 * (`evening`, `evening-2`), it names the moment across regenerations, which may reorder or drop slides:
 * a coach's edit is kept under that name.
 */
export const ditlMomentKinds = ['wake', 'work', 'movement', 'challenge', 'evening', 'windDown', 'dayOff', 'other'] as const;
export const ditlMomentKindSchema = z.enum(ditlMomentKinds);
export type DitlMomentKind = z.infer<typeof ditlMomentKindSchema>;

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
            moment: ditlMomentKindSchema,
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
    weeklyRhythm: z.object({ sundayAlignment: line(400), fridayCheckIn: line(400), rest: line(400) }).strict(),
    closing: line(600),
  })
  .strict();
export type DitlPlan = z.infer<typeof ditlPlanSchema>;

export const ditlPlannerNames = ['openai', 'offline'] as const;
export const ditlPlannerNameSchema = z.enum(ditlPlannerNames);
export type DitlPlannerName = z.infer<typeof ditlPlannerNameSchema>;

/** A moment's name: its kind, then `-2`… for a later slide of the same kind. */
export const ditlMomentKeySchema = textSchema().regex(new RegExp(`^(?:${ditlMomentKinds.join('|')})(?:-[2-8])?$`), 'Unknown moment');

/** The coach's rewrite of one moment: what happens then, and the habit. */
export const ditlMomentEditBodySchema = z
  .object({
    narrative: textSchema().trim().min(1, 'Write what happens at this moment').max(800, 'At most 800 characters'),
    habit: textSchema().trim().min(1, 'Name the habit').max(300, 'At most 300 characters'),
  })
  .strict();
export type DitlMomentEditBody = z.input<typeof ditlMomentEditBodySchema>;

export const coachDitlRequestSchema = z.object({ userId: uuidSchema }).strict();
/** `ditl.coach-regenerate`: the gateway adds the client's evolution length as it is now, as for `ditl.generate`. */
export const coachRegenerateDitlRequestSchema = coachDitlRequestSchema.extend({ evolutionDays: evolutionDaysSchema }).strict();
export const editDitlMomentRequestSchema = z
  .object({ userId: uuidSchema, moment: ditlMomentKeySchema, coachId: uuidSchema, edit: ditlMomentEditBodySchema })
  .strict();
export const resetDitlMomentRequestSchema = z.object({ userId: uuidSchema, moment: ditlMomentKeySchema }).strict();

/** One generation as the coach sees it: where it is, which planner wrote it, when. */
export const ditlGenerationSummarySchema = z.object({
  generationId: uuidSchema,
  status: ditlStatusSchema,
  progress: z.number().int().min(0).max(100),
  planner: ditlPlannerNameSchema.nullable(),
  createdAt: isoDateTimeSchema,
  completedAt: isoDateTimeSchema.nullable(),
});
export type DitlGenerationSummary = z.infer<typeof ditlGenerationSummarySchema>;

/**
 * `GET /api/ditl/generations/current`: the client's newest finished presentation, if any, and their newest request
 * whatever became of it, by which the web app tells whether a request whose answer it lost was taken.
 */
export const currentDitlRequestSchema = z.object({ userId: uuidSchema }).strict();
export const currentDitlResponseSchema = z.object({
  generation: ditlStatusResponseSchema.nullable(),
  latest: ditlGenerationSummarySchema.nullable(),
});
export type CurrentDitlResponse = z.infer<typeof currentDitlResponseSchema>;

/** A moment of the plan as the client sees it, with what the planner wrote when the coach changed it. */
export const coachDitlMomentSchema = z.object({
  key: ditlMomentKeySchema,
  kind: ditlMomentKindSchema,
  time: z.string(),
  title: z.string(),
  narrative: z.string(),
  habit: z.string(),
  sparkToCapture: z.string(),
  generated: z.object({ narrative: z.string(), habit: z.string() }),
  editedAt: isoDateTimeSchema.nullable(),
});
export type CoachDitlMoment = z.infer<typeof coachDitlMomentSchema>;

/** The Manage Client dialog's Day in the Life tab: the newest request, and the newest finished plan with the coach's edits. */
export const coachDitlViewSchema = z.object({
  latest: ditlGenerationSummarySchema.nullable(),
  current: z
    .object({
      generation: ditlGenerationSummarySchema,
      title: z.string(),
      subtitle: z.string(),
      moments: z.array(coachDitlMomentSchema),
    })
    .nullable(),
});
export type CoachDitlView = z.infer<typeof coachDitlViewSchema>;
