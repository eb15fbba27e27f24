import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import type { ServiceBus } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import type { KeyedCommands } from '../http/keyed-commands';
import type { RateLimit, RateLimiter } from '../http/rate-limiter';
import { type AuditedRoute, auditedRouteOf } from './audited.decorator';

// An audited action waits for its record; a slow auth-service must not hold it for the whole bus deadline.
const RECORD_TIMEOUT_MS = 3000;
const MAX_DETAIL_LENGTH = 200;
// The log keeps every event for good, and a 403 costs the caller nothing: a script looping one refused action would
// fill it, and the auth-service's stream with it. A person's first refusals show what they tried; the rest are logged.
const REFUSALS_RECORDED_PER_ACTOR: RateLimit = { name: 'audit-refusals-recorded', max: 20, windowMs: 60 * 60_000 };
// Every audited action one person is let do, for the same reason: a script (or a stolen token) looping an allowed
// action, one that changes nothing included, would fill the log. Far above what a person does in a working hour.
const AUDITED_ACTIONS_PER_ACTOR: RateLimit = { name: 'audited-actions', max: 600, windowMs: 60 * 60_000 };

const valueAt = (source: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), source);

const textAt = (source: unknown, path: readonly string[]): string | null => {
  const value = valueAt(source, path);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
};

function detailsOf(route: AuditedRoute, body: unknown): AuditEvent['details'] {
  const details: AuditEvent['details'] = {};
  for (const field of route.details ?? []) {
    const value = valueAt(body, [field]);
    if (typeof value === 'string') details[field] = value.slice(0, MAX_DETAIL_LENGTH);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) details[field] = value;
  }
  return details;
}

const actorOf = (request: FastifyRequest) => (request as FastifyRequest & { user?: AuthenticatedUser }).user;

/**
 * Writes the audit events of audited routes through `auth.record-audit-event`. A failure to record is
 * logged as an error with the whole event (so it can be replayed) and never undoes the action.
 */
export class AuditTrail {
  constructor(
    private readonly bus: ServiceBus,
    private readonly logger: Logger,
    private readonly limiter: RateLimiter,
    private readonly keyed: KeyedCommands,
  ) {}

  /** Before an audited handler runs: a person past their audited actions for the hour is refused (429), nothing done. */
  async admit(request: FastifyRequest): Promise<void> {
    const actor = actorOf(request);
    if (!actor || !auditedRouteOf(request)) return;
    await this.limiter.hit({ limit: AUDITED_ACTIONS_PER_ACTOR, subject: actor.id });
  }

  /** After an audited handler answered: the target may come from its answer. */
  recordSuccess(request: FastifyRequest, answer: unknown): Promise<void> {
    return this.record(request, 'succeeded', answer);
  }

  /** After a refusal on an audited route (`answerFailure` says which), whether the guard or the service refused: up to a number per person. */
  async recordRefusal(request: FastifyRequest): Promise<void> {
    const route = auditedRouteOf(request);
    const actor = actorOf(request);
    if (!route || !actor) return;
    try {
      await this.limiter.hit({ limit: REFUSALS_RECORDED_PER_ACTOR, subject: actor.id });
    } catch (error) {
      // Over the limit, or Redis (and with it the bus the record would go by) is away. The actor's id alone: the logs
      // outlive account erasure, and an id points to nobody once the account is gone.
      this.logger.warn({ err: error, actorId: actor.id, action: route.action }, 'refused attempt not recorded in the audit log');
      return;
    }
    await this.record(request, 'refused', undefined);
  }

  private async record(request: FastifyRequest, outcome: AuditEvent['outcome'], answer: unknown): Promise<void> {
    const route = auditedRouteOf(request);
    const actor = actorOf(request);
    if (!route || !actor) return;
    const event: AuditEvent = {
      // A keyed command's repeat ran nothing new: it gets its first event's id, which the log stores once.
      id: this.keyed.auditEventId(request, actor.id, route.action, outcome, answer) ?? randomUUID(),
      correlationId: request.id,
      at: new Date().toISOString(),
      actor: { id: actor.id, email: actor.email, role: actor.role },
      action: route.action,
      target: {
        type: route.type,
        id: !route.id ? null : 'param' in route.id ? textAt(request.params, [route.id.param]) : textAt(answer, route.id.answer),
        label: route.label ? ('body' in route.label ? textAt(request.body, route.label.body) : textAt(answer, route.label.answer)) : null,
      },
      clientIp: request.ip,
      outcome,
      details: detailsOf(route, request.body),
    };
    try {
      await this.bus.request('auth.record-audit-event', event, { timeoutMs: RECORD_TIMEOUT_MS });
    } catch (error) {
      this.logger.error({ err: error, auditEvent: event }, 'AUDIT EVENT NOT RECORDED: the action stands, its audit record is missing');
    }
  }
}
