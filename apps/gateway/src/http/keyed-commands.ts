import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { SigningKeys } from '@spark/config';
import { type AuditAction, type AuditEvent, type IdempotencyKeyHeader, idempotencyKeyHeaderSchema, type PatternName } from '@spark/contracts';
import { keyedRequestId, keyedUuid } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import { WithRouteConfig } from './route-config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's command runs once per `Idempotency-Key` (`KeyedCommands`). */
    takesIdempotencyKey?: true;
  }
}

/** Marks a route whose command runs once per key, so its audit event is recorded once too (`auditEventId`). */
export const TakesIdempotencyKey = () => WithRouteConfig({ takesIdempotencyKey: true });

const keyOf = (request: FastifyRequest): unknown => request.headers['idempotency-key'];

/** The request's `Idempotency-Key` header, for `new ZodPipe(idempotencyKeyHeaderSchema)` to check (400 when malformed). */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): Record<keyof IdempotencyKeyHeader, unknown> => ({
  'Idempotency-Key': keyOf(context.switchToHttp().getRequest<FastifyRequest>()),
}));

/**
 * Commands a person may press again after the answer was lost (docs/messaging.md, "Idempotency-Key"): with their key,
 * every repeat is the same bus request, which the service answers from its ledger instead of acting again.
 */
export class KeyedCommands {
  constructor(private readonly keys: SigningKeys) {}

  /**
   * The bus request id of `pattern` sent for `userId` under their key with `input` (the route's target and body as they
   * sent them); undefined without a key (a random id, as ever).
   */
  requestId(userId: string, pattern: PatternName, { 'Idempotency-Key': key }: IdempotencyKeyHeader, input: unknown): string | undefined {
    return key === undefined ? undefined : keyedRequestId(this.keys, pattern, userId, key, input);
  }

  /**
   * The id of the audit event of a keyed command: the same for a repeat its service answered from its ledger (the same
   * target, body and answer), which the audit log (keyed by event id) then stores once; another for a command that ran
   * again (its answer names a new record). Undefined on a route that takes no key (a key there does not stop the action
   * happening again, so neither may it stop its record) and without a valid key.
   */
  auditEventId(request: FastifyRequest, actorId: string, action: AuditAction, outcome: AuditEvent['outcome'], answer: unknown): string | undefined {
    if (!request.routeOptions.config?.takesIdempotencyKey) return undefined;
    const key = idempotencyKeyHeaderSchema.safeParse({ 'Idempotency-Key': keyOf(request) }).data?.['Idempotency-Key'];
    if (key === undefined) return undefined;
    return keyedUuid(this.keys, 'auth.record-audit-event', actorId, key, { action, outcome, params: request.params, body: request.body, answer });
  }
}
