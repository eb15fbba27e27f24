import { type JobPayload, leadRoleSchema, QUEUES } from '@spark/contracts';
import type { JobQueues } from '@spark/jobs';
import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { erasedSinceSql } from './sent-mail.repository';

/** The cap's window: an hour of the clock, in UTC. */
export const HOUR_MS = 3_600_000;

/**
 * The digest waits this long past its hour for the replicas whose clocks are behind: until the digest closes the
 * hour they still decide into it, and a decision after the close is sent one by one rather than lost.
 */
const DIGEST_GRACE_MS = 60_000;

/** The leads a digest names, the hour's first by the time they were submitted; the others it counts. */
const DIGEST_NAMES = 5;

/**
 * How long an alert's decision is kept: past how long a failed job is kept for an admin to retry it, so every delivery
 * of a job that may have reached the team (a retry, the outbox dispatching it again after Redis lost its data) still
 * finds its decision. A digest's addresses go sooner, once it was sent.
 */
const DECISIONS_KEPT = "interval '8 days'";

/** A lead a digest names, as its decision recorded it: what the team's alert would have named but the visitor's words. */
const namedLeadSchema = z.object({ email: z.email(), role: leadRoleSchema, createdAt: z.iso.datetime({ offset: true }) });
export type NamedLead = z.infer<typeof namedLeadSchema>;

export type AlertDecision = { send: 'alert' } | { send: 'digest'; windowStart: number };

type Decided = { decision: 'alert' | 'digest'; window_start: Date };
type Decision = Decided & { openedHour: boolean };

/**
 * The cap on the team's new-lead alerts across every network: at most `perHour` alerts an hour go one by one, and the
 * hour's others go in one digest after it (`lead-alert-digest`, a delayed job the notifier queues for itself, signed
 * like every mail job). Its state is the notifier's own (`notifier.lead_alert_hours`, `notifier.lead_alert_decisions`):
 * no other service can write it, and losing Redis loses none of it.
 */
export class LeadAlertCap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueues,
    readonly perHour: number,
  ) {}

  /**
   * Sends the alert one by one, or counts it for its hour's digest, which is then queued: decided once per signature
   * whatever the number of deliveries, and kept as decided. An hour whose digest has already closed it (a clock
   * behind the others, a digest run early by hand) sends the alert one by one rather than lose it.
   */
  async decide(data: JobPayload<'mail', 'lead-alert'>, now = Date.now()): Promise<AlertDecision> {
    const hour = new Date(Math.floor(now / HOUR_MS) * HOUR_MS);
    const decided = await this.dataSource.transaction((manager) => this.decideOnce(manager, data, hour));
    // Once an hour, so the decisions stay bounded by about a week's leads without a job of their own; after the
    // commit, so the hour's other decisions do not wait on it. One that fails is done by the next hour's.
    if (decided.openedHour) await this.prune(hour).catch(() => undefined);
    if (decided.decision === 'alert') return { send: 'alert' };
    const windowStart = decided.window_start.getTime();
    // Queued again on a redelivery too: a worker that died after the decision may not have queued it, and BullMQ
    // ignores a job id it holds.
    await this.jobs.add([
      {
        job: { queue: QUEUES.mail, name: 'lead-alert-digest', data: { windowStart: decided.window_start.toISOString() } },
        jobId: `lead-alert-digest-${windowStart}`,
        delayMs: Math.max(0, windowStart + HOUR_MS + DIGEST_GRACE_MS - now),
      },
    ]);
    return { send: 'digest', windowStart };
  }

  private async decideOnce(manager: EntityManager, data: JobPayload<'mail', 'lead-alert'>, hour: Date): Promise<Decision> {
    const signature = data.submission.signature;
    const earlier = await this.decisionOf(manager, signature);
    if (earlier) return { ...earlier, openedHour: false };
    // The hour's row is what serialises its decisions (and the digest's close), so its count never passes the cap.
    const opened: unknown[] = await manager.query(
      `INSERT INTO notifier.lead_alert_hours (window_start) VALUES ($1) ON CONFLICT (window_start) DO NOTHING RETURNING 1`,
      [hour],
    );
    const [state]: { alerts: number; closed: boolean }[] = await manager.query(
      `SELECT alerts, closed_at IS NOT NULL AS closed FROM notifier.lead_alert_hours WHERE window_start = $1 FOR UPDATE`,
      [hour],
    );
    if (!state) throw new Error("the hour's row of the lead alert cap is missing");
    const decision = state.closed || state.alerts < this.perHour ? 'alert' : 'digest';
    const digest = decision === 'digest';
    const recorded: unknown[] = await manager.query(
      `INSERT INTO notifier.lead_alert_decisions (signature, window_start, decision, email, role, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (signature) DO NOTHING RETURNING 1`,
      [signature, hour, decision, digest ? data.email : null, digest ? data.role : null, digest ? data.createdAt : null],
    );
    // Another delivery of the same alert decided it meanwhile (its hour may be another, by its clock): that decision
    // stands, and this one counts nothing.
    if (recorded.length === 0) {
      const theirs = await this.decisionOf(manager, signature);
      if (!theirs) throw new Error('the lead alert was decided by another delivery that left no decision');
      return { ...theirs, openedHour: opened.length > 0 };
    }
    if (decision === 'alert' && !state.closed) await manager.query(`UPDATE notifier.lead_alert_hours SET alerts = alerts + 1 WHERE window_start = $1`, [hour]);
    return { decision, window_start: hour, openedHour: opened.length > 0 };
  }

  private async prune(hour: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM notifier.lead_alert_decisions WHERE window_start < $1::timestamptz - ${DECISIONS_KEPT}`, [hour]);
    await this.dataSource.query(`DELETE FROM notifier.lead_alert_hours WHERE window_start < $1::timestamptz - ${DECISIONS_KEPT}`, [hour]);
  }

  private async decisionOf(manager: EntityManager, signature: string): Promise<Decided | undefined> {
    const [decided]: Decided[] = await manager.query(`SELECT decision, window_start FROM notifier.lead_alert_decisions WHERE signature = $1`, [signature]);
    return decided;
  }

  /**
   * Closes the hour, so no later decision counts into it, and reads how many it counted and the first it may name:
   * not an address erased since its lead was submitted. The close waits for the decisions under way, so the read
   * that follows sees every one the hour counted.
   */
  async close(windowStart: number): Promise<{ count: number; named: NamedLead[] }> {
    const hour = new Date(windowStart);
    await this.dataSource.query(
      `INSERT INTO notifier.lead_alert_hours AS hours (window_start, closed_at) VALUES ($1, now())
       ON CONFLICT (window_start) DO UPDATE SET closed_at = coalesce(hours.closed_at, now())`,
      [hour],
    );
    const [row]: { count: number; named: unknown }[] = await this.dataSource.query(
      `SELECT
         (SELECT count(*)::int FROM notifier.lead_alert_decisions WHERE window_start = $1 AND decision = 'digest') AS count,
         coalesce((
           SELECT json_agg(json_build_object('email', email, 'role', role, 'createdAt', created_at) ORDER BY created_at, decided_at, signature)
           FROM (
             SELECT email, role, created_at, decided_at, signature FROM notifier.lead_alert_decisions
             WHERE window_start = $1 AND decision = 'digest' AND email IS NOT NULL AND NOT ${erasedSinceSql('email', 'created_at')}
             ORDER BY created_at, decided_at, signature LIMIT $2
           ) first
         ), '[]'::json) AS named`,
      [hour, DIGEST_NAMES],
    );
    // A row no longer read as a lead (a role since retired) is counted, not named, rather than failing the digest.
    const named = z
      .array(z.unknown())
      .parse(row?.named ?? [])
      .flatMap((lead) => namedLeadSchema.safeParse(lead).data ?? []);
    return { count: row?.count ?? 0, named };
  }

  /** Forgets the addresses of the hour's leads once its digest went: only their decisions are kept. */
  async forget(windowStart: number): Promise<void> {
    await this.dataSource.query(`UPDATE notifier.lead_alert_decisions SET email = NULL WHERE window_start = $1 AND email IS NOT NULL`, [new Date(windowStart)]);
  }
}
