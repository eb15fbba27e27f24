import { type AuditEvent, type AuditEventPage, type PayloadOf, type ResponseOf, uuidSchema } from '@spark/contracts';
import { decodeCursor, pageOf, positionOfRow } from '@spark/persistence';
import type { AuditEventRow, AuditRepository } from './audit.repository';

const toAuditEvent = (row: AuditEventRow): AuditEvent => ({
  id: row.id,
  correlationId: row.correlation_id,
  at: row.at.toISOString(),
  actor: { id: row.actor_id, email: row.actor_email, role: row.actor_role },
  action: row.action,
  target: { type: row.target_type, id: row.target_id, label: row.target_label },
  clientIp: row.client_ip,
  outcome: row.outcome,
  details: row.details,
});

/** The audit log: the gateway records, admins read. */
export class AuditService {
  constructor(private readonly events: AuditRepository) {}

  /** Idempotent: the event's id is its key, so a redelivered request stores nothing twice. */
  async record(event: PayloadOf<'auth.record-audit-event'>): Promise<ResponseOf<'auth.record-audit-event'>> {
    return { id: event.id, recorded: await this.events.insert(event) };
  }

  async list(request: PayloadOf<'auth.list-audit-events'>): Promise<AuditEventPage> {
    const after = decodeCursor(request.cursor);
    const actorIsId = request.actor !== undefined && uuidSchema.safeParse(request.actor).success;
    const rows = await this.events.page(
      { action: request.action, actorId: actorIsId ? request.actor : undefined, actorEmail: actorIsId ? undefined : request.actor },
      after,
      request.limit,
    );
    const page = pageOf(rows, request.limit, positionOfRow);
    return { items: page.items.map(toAuditEvent), nextCursor: page.nextCursor };
  }
}
