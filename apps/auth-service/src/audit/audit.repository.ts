import type { AuditAction, AuditEvent } from '@spark/contracts';
import type { Keyed, KeysetPosition } from '@spark/persistence';
import type { DataSource } from 'typeorm';

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

/** Inserts and reads only: the table refuses updates and deletes. */
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** False when an event with this id is stored already (the same request delivered twice). */
  async insert(event: AuditEvent): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO auth.audit_events (${columns})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
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
