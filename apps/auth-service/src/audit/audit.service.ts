import { type AuditEvent, type AuditEventPage, type PayloadOf, type ResponseOf, uuidSchema } from '@spark/contracts';
import { DomainError } from '@spark/messaging';
import { decodeCursor, encodeCursor } from '@spark/persistence';
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
    if (request.cursor && !after) throw new DomainError('VALIDATION_FAILED', 'Some fields are invalid.', { fieldErrors: { cursor: ['Invalid cursor'] } });
    const actorIsId = request.actor !== undefined && uuidSchema.safeParse(request.actor).success;
    const rows = await this.events.page(
      { action: request.action, actorId: actorIsId ? request.actor : undefined, actorEmail: actorIsId ? undefined : request.actor },
      after,
      request.limit,
    );
    const items = rows.slice(0, request.limit);
    const last = items.at(-1);
    return { items: items.map(toAuditEvent), nextCursor: rows.length > request.limit && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null };
  }
}
