import type { AuditAction, AuditEvent } from '@spark/contracts';
import type { Keyed, KeysetPosition } from '@spark/persistence';
import type { DataSource } from 'typeorm';
import { ERASED_LABEL, erasedActorSql, erasedTargetSql } from './audit-erasure';

export interface AuditEventRow {
  id: string;
  correlation_id: string;
  at: Date;
  actor_id: string;
  actor_email: string;
  actor_role: AuditEvent['actor']['role'];
  action: AuditAction;
  target_type: AuditEvent['target']['type'];
  target_id: string | null;
  target_label: string | null;
  client_ip: string;
  outcome: AuditEvent['outcome'];
  details: AuditEvent['details'];
}

export interface AuditFilter {
  action?: AuditAction;
  actorId?: string;
  actorEmail?: string;
}

const columns = `id, correlation_id, at, actor_id, actor_email, actor_role, action, target_type, target_id, target_label, client_ip, outcome, details`;

// The event's actor and target, each matched against an account whose deletion is confirmed and unfinished.
const eventActor = erasedActorSql(
  { id: '$4::uuid', email: '$5::text' },
  { userId: 'by_deleted.user_id', email: 'by_deleted.email', deletionId: 'by_deleted.id', label: '$14::text' },
);
const eventTarget = erasedTargetSql(
  { id: '$9::text', label: '$10::text' },
  { userId: 'about_deleted.user_id', email: 'about_deleted.email', deletionId: 'about_deleted.id', label: '$14::text' },
);
// The same name inside and out: the matching expressions above name the deletion's columns by it.
const unfinishedDeletion = (name: string, { matches, byId }: { matches: string; byId: string }) =>
  `(SELECT id, user_id, email FROM auth.account_deletions AS ${name}
    WHERE completed_at IS NULL AND ${matches} ORDER BY ${byId} DESC LIMIT 1) AS ${name}`;

/** Inserts and reads only: the table refuses updates and deletes. */
export class AuditRepository {
  constructor(private readonly dataSource: Pick<DataSource, 'query'>) {}

  /**
   * False when an event with this id is stored already (the same request delivered twice). An event by or about an
   * account whose deletion is confirmed is stored as the confirmation left that account's earlier entries: a coach
   * may still act on the client while another service's part is unfinished, and once the deletion completes nothing
   * may change the entry.
   */
  async insert(event: AuditEvent): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO auth.audit_events (${columns})
       SELECT $1::uuid, $2::text, $3::timestamptz, ${eventActor.id}, ${eventActor.email}, $6::text, $7::text, $8::text,
              ${eventTarget.id}, ${eventTarget.label}, $11::text, $12::text, $13::jsonb
       FROM (VALUES (1)) AS event
       LEFT JOIN ${unfinishedDeletion('by_deleted', eventActor)} ON true
       LEFT JOIN ${unfinishedDeletion('about_deleted', eventTarget)} ON true
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        event.id,
        event.correlationId,
        event.at,
        event.actor.id,
        event.actor.email,
        event.actor.role,
        event.action,
        event.target.type,
        event.target.id,
        event.target.label,
        event.clientIp,
        event.outcome,
        JSON.stringify(event.details),
        ERASED_LABEL,
      ],
    );
    return rows.length > 0;
  }

  /** Newest first after `after`; `limit + 1` rows tell whether more exist. Each filter has its index. */
  page(filter: AuditFilter, after: KeysetPosition | undefined, limit: number): Promise<Keyed<AuditEventRow>[]> {
    return this.dataSource.query(
      `SELECT ${columns}, at::text AS cursor_at FROM auth.audit_events
       WHERE ($1::text IS NULL OR action = $1)
         AND ($2::uuid IS NULL OR actor_id = $2)
         AND ($3::text IS NULL OR actor_email = $3)
         AND ($4::timestamptz IS NULL OR (at, id) < ($4::timestamptz, $5::uuid))
       ORDER BY at DESC, id DESC LIMIT $6`,
      [filter.action ?? null, filter.actorId ?? null, filter.actorEmail ?? null, after?.key ?? null, after?.id ?? null, limit + 1],
    );
  }
}
