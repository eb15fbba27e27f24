import { z } from 'zod';
import { isoDateSchema, isoDateTimeSchema, pageOf, pageQuerySchema, uuidSchema, textSchema } from './common';
import { isValidTimeZone } from './evolution';
import { restDaysSchema } from './rest-days';

export const sparkTypes = ['photo', 'file'] as const;
export const sparkTypeSchema = z.enum(sparkTypes);
export type SparkType = z.infer<typeof sparkTypeSchema>;

export const timeZoneSchema = textSchema().max(64).refine(isValidTimeZone, 'Unknown time zone');

/** Upload limits (bytes): the gateway answers 413 beyond them. */
export const SPARK_IMAGE_MAX_BYTES = 15 * 1024 * 1024;
export const SPARK_VIDEO_MAX_BYTES = 100 * 1024 * 1024;
export const SPARK_NOTE_MAX_CHARS = 2000;

/** The client record of docs/product.md §3 (user_progress), as every screen reads it. */
export const progressSchema = z.object({
  userId: uuidSchema,
  fullName: z.string().nullable(),
  transformationGoal: z.string().nullable(),
  sparkCount: z.number().int(),
  streakCount: z.number().int(),
  evolutionNumber: z.number().int(),
  evolutionStartDate: isoDateSchema,
  evolutionEndDate: isoDateSchema,
  status: z.string(),
  customEvolutionDays: z.number().int().nullable(),
  lastSparkDate: isoDateSchema.nullable(),
  timeZone: z.string(),
  /** The weekly rest day, 0 = Sunday … 6 (rest-days.ts); null for none. */
  restWeekday: z.number().int().nullable(),
  /** Pause days the coach allows in each 14-day window. */
  pauseDaysAllowance: z.number().int(),
});
export type Progress = z.infer<typeof progressSchema>;

export const sparkSchema = z.object({
  id: uuidSchema,
  clientSparkId: uuidSchema,
  userId: uuidSchema,
  sparkType: sparkTypeSchema,
  fileKey: z.string(),
  fileType: z.string(),
  note: z.string().nullable(),
  createdAt: isoDateTimeSchema,
  /** A short-lived signed GET URL; the gateway adds it after checking the reader's right. */
  fileUrl: z.string().optional(),
});
export type Spark = z.infer<typeof sparkSchema>;

export const coachNoteSchema = z.object({
  id: uuidSchema,
  userId: uuidSchema,
  coachId: uuidSchema.nullable(),
  message: z.string(),
  isPinned: z.boolean(),
  createdAt: isoDateTimeSchema,
});
export type CoachNote = z.infer<typeof coachNoteSchema>;

export const privateNoteSchema = z.object({
  id: uuidSchema,
  userId: uuidSchema,
  coachId: uuidSchema,
  note: z.string(),
  createdAt: isoDateTimeSchema,
});
export type PrivateNote = z.infer<typeof privateNoteSchema>;

/** How long a granted upload URL stays valid, in seconds. */
export const SPARK_UPLOAD_GRANT_SECONDS = 15 * 60;

/** `POST /api/sparks/uploads`: the file the browser is about to upload straight to storage, for which capture. */
export const sparkUploadGrantRequestSchema = z.object({
  clientSparkId: uuidSchema,
  bytes: z.number().int().min(1, 'The file is empty').max(SPARK_VIDEO_MAX_BYTES, 'Files can be at most 100 MB.'),
  /** The browser's type for the file; the real type is read from its first bytes once it is uploaded. */
  contentType: textSchema()
    .max(100)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Not a media type')
    .default('application/octet-stream'),
});
export type SparkUploadGrantRequest = z.infer<typeof sparkUploadGrantRequestSchema>;
/** `progress.grant-spark-upload`: the service checks the storage quota before the file is sent. */
export const grantSparkUploadRequestSchema = sparkUploadGrantRequestSchema.extend({ userId: uuidSchema });

/** Where to PUT the file (exactly the declared bytes, with these headers) before recording the spark with `uploadId`. */
export const sparkUploadGrantSchema = z.object({
  uploadId: uuidSchema,
  url: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type SparkUploadGrant = z.infer<typeof sparkUploadGrantSchema>;

/** `POST /api/sparks`: records the spark whose file was uploaded under `uploadId`. */
export const captureBodySchema = z.object({
  clientSparkId: uuidSchema,
  uploadId: uuidSchema,
  timeZone: timeZoneSchema.default('UTC'),
  note: textSchema().max(SPARK_NOTE_MAX_CHARS).optional(),
  /**
   * When the device took it and when it sent it, both by its own clock: a capture may wait there (offline, or while
   * a service is down) past midnight, and the time between the two dates it back (`sparkTakenAt`).
   */
  takenAt: isoDateTimeSchema.optional(),
  sentAt: isoDateTimeSchema.optional(),
});
export type CaptureBody = z.infer<typeof captureBodySchema>;

/** `progress.record-spark`: the service claims the uploaded file (checked, cleaned, stored); counters move with the row. */
export const recordSparkRequestSchema = z.object({
  userId: uuidSchema,
  clientSparkId: uuidSchema,
  uploadId: uuidSchema,
  note: textSchema()
    .max(SPARK_NOTE_MAX_CHARS)
    .nullish()
    .transform((note) => (note?.trim() ? note.trim() : null)),
  timeZone: timeZoneSchema,
  takenAt: isoDateTimeSchema.optional(),
  sentAt: isoDateTimeSchema.optional(),
  email: textSchema().min(1),
});

export const recordSparkResponseSchema = z.object({
  spark: sparkSchema,
  /** False when this client id was already recorded: the retry changed nothing. */
  created: z.boolean(),
  progress: progressSchema,
  milestone: z.object({ title: z.string(), description: z.string() }),
});
export type RecordSparkResponse = z.infer<typeof recordSparkResponseSchema>;

export const homeRequestSchema = z.object({ userId: uuidSchema });
/** The client home: a missing progress row is `null`, not an error. */
export const homeResponseSchema = z.object({
  progress: progressSchema.nullable(),
  pinnedNote: coachNoteSchema.nullable(),
  /** The rest day and pause days; null with the progress. Missing in a home snapshot a device saved before they existed. */
  restDays: restDaysSchema.nullable().default(null),
});
export type HomeResponse = z.infer<typeof homeResponseSchema>;

export const sparkListQuerySchema = pageQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(100).default(20) });
export const listSparksRequestSchema = sparkListQuerySchema.extend({ userId: uuidSchema });
export const sparkPageSchema = pageOf(sparkSchema);
export type SparkPage = z.infer<typeof sparkPageSchema>;

/** `ownerId` is set for clients: another user's spark is then simply not found. */
export const getSparkRequestSchema = z.object({ sparkId: uuidSchema, ownerId: uuidSchema.optional() });

export const coachNoteBodySchema = z.object({
  message: textSchema().trim().min(1, 'Message required').max(SPARK_NOTE_MAX_CHARS),
  isPinned: z.boolean().default(true),
});
export const addCoachNoteRequestSchema = coachNoteBodySchema.extend({ userId: uuidSchema, coachId: uuidSchema });

export const privateNoteBodySchema = z.object({ note: textSchema().trim().min(1, 'Note required').max(SPARK_NOTE_MAX_CHARS) });
export const addPrivateNoteRequestSchema = privateNoteBodySchema.extend({ userId: uuidSchema, coachId: uuidSchema });
/** Query of `GET /api/progress/clients/:userId/private-notes`: newest first, keyset-paginated like the dashboard's lists. */
export const privateNotesQuerySchema = pageQuerySchema.extend({ limit: pageQuerySchema.shape.limit.default(25) }).strict();
export const listPrivateNotesRequestSchema = privateNotesQuerySchema.extend({ userId: uuidSchema });
export const privateNotePageSchema = pageOf(privateNoteSchema);
export type PrivateNotePage = z.infer<typeof privateNotePageSchema>;
