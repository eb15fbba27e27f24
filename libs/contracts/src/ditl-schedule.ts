import { z } from 'zod';

/** A time of day as minutes after the client's local midnight: 0 is 12:00 AM, 1439 is 11:59 PM. */
export const minuteOfDaySchema = z.number().int().min(0).max(1439);

/**
 * How the reader knows a time: the client wrote it ("up at 5:30"), it follows from what they wrote
 * ("after work", "at night"), or nothing said it and a default stands in. Plans show a clock time
 * only for the first two.
 */
export const timeSources = ['stated', 'implied', 'assumed'] as const;
export const timeSourceSchema = z.enum(timeSources);
export type TimeSource = z.infer<typeof timeSourceSchema>;

export const dayEventKinds = ['wake', 'sleep', 'work', 'meal', 'exercise', 'family', 'care', 'commute', 'study', 'screens', 'rest', 'travel', 'other'] as const;
export const dayEventKindSchema = z.enum(dayEventKinds);
export type DayEventKind = z.infer<typeof dayEventKindSchema>;

/** Regular day work, nights, shifts that change, work on weekends, a life on the road, or no work described. */
export const workPatterns = ['day', 'night-shift', 'rotating-shifts', 'weekend-work', 'travel', 'none'] as const;
export const workPatternSchema = z.enum(workPatterns);
export type WorkPattern = z.infer<typeof workPatternSchema>;

const clientPhrase = z.string().max(80);

export const scheduledTimeSchema = z.object({ minute: minuteOfDaySchema, source: timeSourceSchema }).strict();
export type ScheduledTime = z.infer<typeof scheduledTimeSchema>;

/** Something the client said they do at a time of day: "dinner at 7", "work 7 PM to 7 AM". */
export const dayEventSchema = z
  .object({
    kind: dayEventKindSchema,
    minute: minuteOfDaySchema,
    endMinute: minuteOfDaySchema.optional(),
    source: z.enum(['stated', 'implied']),
    /** The client's own words for it, a few at most. */
    phrase: clientPhrase,
  })
  .strict();
export type DayEvent = z.infer<typeof dayEventSchema>;

/**
 * The client's typical day as the DITL reader understood it. Sent to the model with the answers,
 * and the contract every plan is checked against: no moment while asleep (between `sleep` and
 * `wake`, across midnight when it wraps), the challenge moment near `challenge.minute`.
 */
export const dayScheduleSchema = z
  .object({
    /** False when the answer named no time at all: a plan then follows the order of the day, not the clock. */
    hoursKnown: z.boolean(),
    wake: scheduledTimeSchema,
    sleep: scheduledTimeSchema,
    workPattern: workPatternSchema,
    work: z
      .object({ start: minuteOfDaySchema, end: minuteOfDaySchema, source: z.enum(['stated', 'implied']), phrase: clientPhrase })
      .strict()
      .nullable(),
    events: z.array(dayEventSchema).max(24),
    /** Days off the client described ("on weekends", "Monday to Thursday are my days off"). */
    daysOff: z.object({ phrase: clientPhrase, wake: minuteOfDaySchema.optional() }).strict().nullable(),
    /** When the biggest challenge shows up, if the answers name or imply it. */
    challenge: z
      .object({ minute: minuteOfDaySchema, source: z.enum(['stated', 'implied']), phrase: clientPhrase })
      .strict()
      .nullable(),
    /** How the client writes times, so the plan writes them back the same way. */
    clock: z.enum(['12h', '24h']),
  })
  .strict();
export type DaySchedule = z.infer<typeof dayScheduleSchema>;
