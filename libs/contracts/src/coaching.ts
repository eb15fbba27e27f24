import { z } from 'zod';
import { isoDateSchema, uuidSchema } from './common';
import { sparkSchema } from './progress';

/** Which of the drafter's wordings fits the client's week (docs/coaching.md). */
export const nudgeSituations = ['never-sparked', 'streak-broke', 'long-silence', 'doing-well'] as const;
export const nudgeSituationSchema = z.enum(nudgeSituations);
export type NudgeSituation = z.infer<typeof nudgeSituationSchema>;

/** A run of consecutive local days with at least one spark. */
export const sparkRunSchema = z.object({ days: z.number().int().min(1), from: isoDateSchema, to: isoDateSchema });
export type SparkRun = z.infer<typeof sparkRunSchema>;

/**
 * What the drafts may say: everything comes from the client's record, onboarding answers and sparks.
 * `pauseDays` are the days the client paused on purpose; empty until pause days exist.
 */
export const coachingFactsSchema = z.object({
  firstName: z.string(),
  situation: nudgeSituationSchema,
  today: isoDateSchema,
  /** Local days without a spark (since the cycle began when there is none yet). */
  idleDays: z.number().int().min(0),
  daysSinceLastSpark: z.number().int().min(0).nullable(),
  currentStreak: z.number().int().min(0),
  /** The run that ended when the client stopped: null while it is still going or before any spark. */
  endedStreak: sparkRunSchema.nullable(),
  goal: z.string().nullable(),
  challenge: z.string().nullable(),
  evolutionNumber: z.number().int().min(1),
  evolutionDay: z.number().int().min(1),
  evolutionDays: z.number().int().min(1),
  sparksThisWeek: z.number().int().min(0),
  pauseDays: z.array(isoDateSchema),
});
export type CoachingFacts = z.infer<typeof coachingFactsSchema>;

/** Who wrote a draft: the configured model (its text passed the draft checks) or the offline writer. */
export const draftWriters = ['openai', 'offline'] as const;
export const draftWriterSchema = z.enum(draftWriters);
export type DraftWriter = z.infer<typeof draftWriterSchema>;

/** `GET /api/coach/clients/:userId/nudge-draft`: a message the coach edits; nothing is sent. */
export const nudgeDraftSchema = z.object({
  message: z.string(),
  writer: draftWriterSchema,
  facts: coachingFactsSchema,
});
export type NudgeDraft = z.infer<typeof nudgeDraftSchema>;

/** The week the Friday check-in covers: the seven local days ending today, oldest first. */
export const checkInDaySchema = z.object({ date: isoDateSchema, sparks: z.number().int().min(0), paused: z.boolean() });

/** `GET /api/coach/clients/:userId/weekly-check-in`: the week's sparks (signed thumbnails), what slipped and what went well. */
export const weeklyCheckInSchema = z.object({
  weekStart: isoDateSchema,
  weekEnd: isoDateSchema,
  days: z.array(checkInDaySchema).length(7),
  sparks: z.array(sparkSchema),
  currentStreak: z.number().int().min(0),
  /** Days of the week without a spark, not counting pause days or days before the cycle began. */
  missedDays: z.array(isoDateSchema),
  longestRun: sparkRunSchema.nullable(),
  /** Notes the client wrote with this week's sparks, newest first. */
  clientNotes: z.array(z.string()),
  summary: z.string(),
  writer: draftWriterSchema,
  facts: coachingFactsSchema,
});
export type WeeklyCheckIn = z.infer<typeof weeklyCheckInSchema>;

export const coachingDraftRequestSchema = z.object({ userId: uuidSchema }).strict();

/** How long the gateway waits for a draft: two model calls of COACHING_MODEL_TIMEOUT_MS at most, then the offline draft. */
export const COACHING_DRAFT_TIMEOUT_MS = 30_000;
