import { randomBytes } from 'node:crypto';
import { type PushSubscriptionJson, REMINDER_GRACE_MINUTES, type ReminderSettings, type UpdateReminderSettingsBody } from '@spark/contracts';
import type { DataSource } from 'typeorm';

interface SettingsRow {
  enabled: boolean;
  local_time: string;
  quiet_start: string | null;
  quiet_end: string | null;
  has_push: boolean;
}

/** A reminder the tick claimed: sent by push when the client has a device, by e-mail otherwise. */
export interface DueReminder {
  user_id: string;
  email: string;
  full_name: string | null;
  /** The client's date where they live, `YYYY-MM-DD`. */
  local_date: string;
  /** When that date ends where they live: no reminder of it is sent from then on. */
  day_ends_at: Date;
  push_subscription: PushSubscriptionJson | null;
  unsubscribe_token: string;
}

const hhmm = (time: string) => time.slice(0, 5);
const toSettings = (row: SettingsRow | undefined): ReminderSettings =>
  row
    ? {
        enabled: row.enabled,
        localTime: hhmm(row.local_time),
        quietHours: row.quiet_start && row.quiet_end ? { start: hhmm(row.quiet_start), end: hhmm(row.quiet_end) } : null,
        push: row.has_push,
      }
    : { enabled: false, localTime: '20:00', quietHours: null, push: false };

const settingsColumns = `enabled, local_time::text, quiet_start::text, quiet_end::text, push_subscription IS NOT NULL AS has_push`;

// A client's row with its defaults, made on first use (only for a client with progress, hence the SELECT).
const insertDefaultsSql = `
  INSERT INTO progress.reminder_settings (user_id, unsubscribe_token, next_due_at)
  SELECT user_id, $2, progress.next_local_occurrence('20:00', progress.known_time_zone(time_zone), now()) FROM progress.user_progress WHERE user_id = $1
  ON CONFLICT (user_id) DO NOTHING`;

export class RemindersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async settings(userId: string): Promise<ReminderSettings> {
    const [row] = (await this.dataSource.query(`SELECT ${settingsColumns} FROM progress.reminder_settings WHERE user_id = $1`, [userId])) as SettingsRow[];
    return toSettings(row);
  }

  /** Undefined when the client has no progress yet (not onboarded). */
  async update(userId: string, settings: UpdateReminderSettingsBody): Promise<ReminderSettings | undefined> {
    return this.upsert(
      userId,
      `enabled = $2, local_time = $3::time, quiet_start = $4::time, quiet_end = $5::time,
      next_due_at = progress.next_local_occurrence($3::time, progress.known_time_zone(p.time_zone), now())`,
      [settings.enabled, settings.localTime, settings.quietHours?.start ?? null, settings.quietHours?.end ?? null],
    );
  }

  async setPushSubscription(userId: string, subscription: PushSubscriptionJson | null): Promise<ReminderSettings | undefined> {
    return this.upsert(userId, `push_subscription = $2::jsonb`, [subscription ? JSON.stringify(subscription) : null]);
  }

  /** Forgets the client's subscription if it is still this endpoint (a newer device's is kept). */
  async forgetPushSubscription(userId: string, endpoint: string): Promise<boolean> {
    const [, count] = (await this.dataSource.query(
      `UPDATE progress.reminder_settings SET push_subscription = NULL, updated_at = now() WHERE user_id = $1 AND push_subscription->>'endpoint' = $2`,
      [userId, endpoint],
    )) as [unknown[], number];
    return count > 0;
  }

  /** True when the token named a client (their reminders are now off). */
  async unsubscribe(token: string): Promise<boolean> {
    const [, count] = (await this.dataSource.query(`UPDATE progress.reminder_settings SET enabled = false, updated_at = now() WHERE unsubscribe_token = $1`, [
      token,
    ])) as [unknown[], number];
    return count > 0;
  }

  /**
   * Claims up to `limit` due reminders: each claimed row's next time moves to its next local day, so no other tick
   * or replica takes it again. Of those, the ones that are still needed come back and are marked sent today: no spark
   * yet today (in the client's zone), not a pause or rest day, not in quiet hours, not already sent today, not more
   * than the grace period late, and still on the day it was due (after the client's midnight, "no spark yet today"
   * would speak of the wrong day, and marking it sent would hold back that day's own). Runs inside the caller's
   * transaction, with the jobs it writes. A zone PostgreSQL does not know reads as UTC for that client alone: one
   * such row must not fail every client's claim, as it would every tick after. Each comes with the instant its day ends
   * in the same zone, since a job may still be retried after the client's midnight.
   */
  async claimDue(limit: number): Promise<{ claimed: number; due: DueReminder[] }> {
    // One UPDATE per row: PostgreSQL applies only one of two updates of a row made by one statement's CTEs.
    const rows = (await this.dataSource.query(
      `WITH due AS (
         SELECT user_id, next_due_at AS was_due FROM progress.reminder_settings
         WHERE enabled AND next_due_at <= now() ORDER BY next_due_at LIMIT $1 FOR UPDATE SKIP LOCKED
       ), seen AS (
         SELECT r.user_id, r.local_time, due.was_due, r.push_subscription, r.unsubscribe_token, r.last_sent_on, r.quiet_start, r.quiet_end,
                p.email, p.full_name, p.rest_weekday, zone.known AS time_zone, (now() AT TIME ZONE zone.known) AS local_now
         FROM due JOIN progress.reminder_settings r ON r.user_id = due.user_id JOIN progress.user_progress p ON p.user_id = due.user_id
         CROSS JOIN LATERAL (SELECT progress.known_time_zone(p.time_zone) AS known) zone
       ), judged AS (
         SELECT seen.*, (
           seen.was_due > now() - make_interval(mins => $2)
           AND (seen.was_due AT TIME ZONE seen.time_zone)::date = seen.local_now::date
           AND seen.last_sent_on IS DISTINCT FROM seen.local_now::date
           AND NOT progress.in_quiet_hours(seen.local_now::time, seen.quiet_start, seen.quiet_end)
           AND (seen.rest_weekday IS NULL OR extract(dow FROM seen.local_now) <> seen.rest_weekday)
           AND NOT EXISTS (SELECT 1 FROM progress.pause_days d WHERE d.user_id = seen.user_id AND d.pause_date = seen.local_now::date)
           AND NOT EXISTS (SELECT 1 FROM progress.sparks s WHERE s.user_id = seen.user_id AND s.created_at >= seen.local_now::date::timestamp AT TIME ZONE seen.time_zone)
         ) AS needed
         FROM seen
       ), advanced AS (
         UPDATE progress.reminder_settings r
         SET next_due_at = progress.next_local_occurrence(judged.local_time, judged.time_zone, now()),
             last_sent_on = CASE WHEN judged.needed THEN judged.local_now::date ELSE r.last_sent_on END
         FROM judged WHERE r.user_id = judged.user_id
       )
       SELECT user_id, needed, email, full_name, local_now::date::text AS local_date,
              ((local_now::date + 1)::timestamp AT TIME ZONE time_zone) AS day_ends_at, push_subscription, unsubscribe_token
       FROM judged`,
      [limit, REMINDER_GRACE_MINUTES],
    )) as (DueReminder & { needed: boolean })[];
    return { claimed: rows.length, due: rows.filter((row) => row.needed).map(({ needed: _needed, ...reminder }) => reminder) };
  }

  /** `set` assigns from $2 on (`values`); `p` is the client's progress row. */
  private async upsert(userId: string, set: string, values: unknown[]): Promise<ReminderSettings | undefined> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(insertDefaultsSql, [userId, randomBytes(24).toString('base64url')]);
      const [rows] = (await manager.query(
        `UPDATE progress.reminder_settings r SET ${set}, updated_at = now()
         FROM progress.user_progress p WHERE r.user_id = $1 AND p.user_id = r.user_id
         RETURNING ${settingsColumns}`,
        [userId, ...values],
      )) as [SettingsRow[], number];
      return rows[0] ? toSettings(rows[0]) : undefined;
    });
  }
}
