import { z } from 'zod';
import { emailSchema, isoDateSchema, isoDateTimeSchema, sealedSchema, textSchema, uuidSchema } from './common';

/** A wall-clock time of day in the client's own time zone, "HH:MM". */
export const localTimeSchema = textSchema().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Use a time like 20:00' });

/** Hours in which no reminder is sent; `start` after `end` spans midnight (22:00–07:00). */
export const quietHoursSchema = z
  .object({ start: localTimeSchema, end: localTimeSchema })
  .refine((hours) => hours.start !== hours.end, { error: 'Quiet hours must start and end at different times', path: ['end'] });

/** Whether "HH:MM" falls in quiet hours (the same rule as the database's `progress.in_quiet_hours`). */
export function inQuietHours(local: string, quiet: { start: string; end: string } | null): boolean {
  if (!quiet) return false;
  return quiet.start < quiet.end ? local >= quiet.start && local < quiet.end : local >= quiet.start || local < quiet.end;
}

/**
 * The one word a reminder greets a client by: letters, with the apostrophes, dots and hyphens of names. A greeting
 * is the only text of a reminder its producer chooses, so it cannot carry a sentence, a number or an address.
 */
const NAME_WORD = /^[\p{L}\p{M}][\p{L}\p{M}'’.-]{0,39}$/u;
export const greetingNameSchema = textSchema().regex(NAME_WORD, { error: 'Not a first name' });

/** The first word of a full name when it reads as a name; null (a greeting without a name) otherwise. */
export function greetingName(fullName: string | null): string | null {
  const [first = ''] = (fullName ?? '').trim().split(/\s+/);
  return NAME_WORD.test(first) ? first : null;
}

/**
 * Whether an ISO date is today in some time zone (they run from 12 hours behind UTC to 14 ahead). A reminder says
 * "no spark yet today", so one for another day is refused: a client's local date names at most one reminder.
 */
export function isTodaySomewhere(date: string, now: Date): boolean {
  const dateAt = (offsetHours: number) => new Date(now.getTime() + offsetHours * 3_600_000).toISOString().slice(0, 10);
  return date >= dateAt(-12) && date <= dateAt(14);
}

/** How late after its time a missed reminder may still go (the service was down, say); later it is skipped. */
export const REMINDER_GRACE_MINUTES = 120;

export const reminderSettingsSchema = z.object({
  enabled: z.boolean(),
  localTime: localTimeSchema,
  quietHours: quietHoursSchema.nullable(),
  /** Whether this account has a device that receives push notifications; e-mail otherwise. */
  push: z.boolean(),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

const reminderSettingsFields = { enabled: z.boolean(), localTime: localTimeSchema, quietHours: quietHoursSchema.nullable() };
const outsideQuietHours = (settings: { localTime: string; quietHours: { start: string; end: string } | null }) =>
  !inQuietHours(settings.localTime, settings.quietHours);
const QUIET_CONFLICT = { error: 'Your reminder time falls in your quiet hours', path: ['localTime'] };

/** `PUT /api/progress/me/reminders`. */
export const updateReminderSettingsBodySchema = z.object(reminderSettingsFields).strict().refine(outsideQuietHours, QUIET_CONFLICT);
export type UpdateReminderSettingsBody = z.infer<typeof updateReminderSettingsBodySchema>;

const base64Key = (max: number) =>
  textSchema()
    .max(max)
    .regex(/^[\w+/-]+={0,2}$/, { error: 'Not a base64 key' });

/** A browser's PushSubscription as `toJSON()` gives it. Where it points is checked against the allowed push services. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  keys: z.object({ p256dh: base64Key(200), auth: base64Key(50) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;
export const setPushSubscriptionBodySchema = z.object({ subscription: pushSubscriptionSchema.nullable() }).strict();
export type SetPushSubscriptionBody = z.infer<typeof setPushSubscriptionBodySchema>;

/** What the web app needs to subscribe a device: the server's VAPID public key, or null when push is not set up. */
export const pushConfigSchema = z.object({ vapidPublicKey: z.string().nullable() });
export type PushConfig = z.infer<typeof pushConfigSchema>;

export const getRemindersRequestSchema = z.object({ userId: uuidSchema }).strict();
export const setRemindersRequestSchema = z
  .object({ ...reminderSettingsFields, userId: uuidSchema })
  .strict()
  .refine(outsideQuietHours, QUIET_CONFLICT);
export const setPushSubscriptionRequestSchema = setPushSubscriptionBodySchema.extend({ userId: uuidSchema }).strict();

/** The e-mailed one-click unsubscribe carries this token (random, per client). */
export const unsubscribeRemindersRequestSchema = z.object({ token: textSchema().min(20).max(100) }).strict();
export const unsubscribeRemindersResponseSchema = z.object({ unsubscribed: z.literal(true) });

/** `reminders` queue, `send-due-reminders`: the repeating tick that finds the clients whose time has come. */
export const sendDueRemindersJobSchema = z.object({});

/**
 * The instant the client's `localDate` ends where they live: a reminder still unsent then would speak of a day that is
 * over for them. Absent from jobs queued by a release before it, which are held to `isTodaySomewhere` alone.
 */
const reminderDayEndSchema = isoDateTimeSchema.optional();

/** `mail` queue, `spark-reminder`: no spark yet today, and no device to push to. */
export const sparkReminderMailJobSchema = z.object({
  /** The client's account: the notifier mails only its address, greeted by its name, once per `localDate`. */
  userId: uuidSchema,
  email: emailSchema,
  /** The client's date where they live: the day the reminder is for. */
  localDate: isoDateSchema,
  dayEndsAt: reminderDayEndSchema,
  sealed: sealedSchema,
});
/** What the `spark-reminder` job seals: the token turns the client's reminders off. */
export const sparkReminderMailSecretsSchema = z.object({ unsubscribeToken: textSchema().max(100) });

/** `push` queue, `spark-reminder-push`: the same reminder as a notification on the client's device. */
export const sparkReminderPushJobSchema = z.object({
  /** A device notified once per `localDate`, whatever the number of jobs naming it. */
  subscription: pushSubscriptionSchema,
  firstName: greetingNameSchema.nullable(),
  /** Whose device it is, so a subscription the push service reports gone can be forgotten. */
  userId: uuidSchema,
  localDate: isoDateSchema,
  dayEndsAt: reminderDayEndSchema,
});

/** `progress.push-subscription-gone`: the push service no longer knows this endpoint; reminders go by e-mail again. */
export const pushSubscriptionGoneRequestSchema = z.object({ userId: uuidSchema, endpoint: z.url().max(2000) }).strict();
export const pushSubscriptionGoneResponseSchema = z.object({ forgotten: z.boolean() });
