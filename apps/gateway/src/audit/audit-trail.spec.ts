import { randomUUID } from 'node:crypto';
import { developmentSigningKeys } from '@spark/config';
import { auditEventSchema } from '@spark/contracts';
import { ServiceUnavailableError, type ServiceBus } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import type { RateLimiter } from '../http/rate-limiter';
import { KeyedCommands } from '../http/keyed-commands';
import { AuditTrail } from './audit-trail';
import type { AuditedRoute } from './audited.decorator';

const approveRoute: AuditedRoute = {
  action: 'client.update',
  type: 'client',
  id: { param: 'userId' },
  label: { answer: ['email'] },
  details: ['status', 'transformationGoal', 'customEvolutionDays'],
};

const requestTo = (route: AuditedRoute | undefined, body: unknown, keyed: { idempotencyKey?: string; takesKey?: true } = {}) =>
  ({
    id: 'req-0001-abcdef',
    ip: '203.0.113.9',
    params: { userId: '0f5c5a6e-2f5e-4d55-9d0e-6f1f1f0b9a11' },
    headers: keyed.idempotencyKey === undefined ? {} : { 'idempotency-key': keyed.idempotencyKey },
    body,
    routeOptions: { config: { auditedRoute: route, takesIdempotencyKey: keyed.takesKey } },
    user: { id: '7d1c2f3a-9a4b-4c5d-8e6f-112233445566', email: 'coach@spark.test', role: 'coach' },
  }) as unknown as FastifyRequest;

// Every refusal within its limit; the limit itself is counted in Redis (audit-log.int-spec.ts).
const withinLimits = { hit: () => Promise.resolve() } as unknown as RateLimiter;
const keyed = new KeyedCommands(developmentSigningKeys());

/** The gateway's real logger, writing to an array instead of stdout. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('the audit trail', () => {
  it('builds the event from the route, the request and the answer, and keeps only short details', async () => {
    const sent: unknown[] = [];
    const bus = { request: async (_pattern: string, event: unknown) => (sent.push(event), { recorded: true }) } as unknown as ServiceBus;
    const { logger } = capturingLogger();
    const body = { status: 'paused', transformationGoal: 'x'.repeat(500), customEvolutionDays: 30, notes: { nested: true } };
    await new AuditTrail(bus, logger, withinLimits, keyed).recordSuccess(requestTo(approveRoute, body), { email: 'client@spark.test' });
    const event = auditEventSchema.parse(sent[0]);
    expect(event).toMatchObject({
      correlationId: 'req-0001-abcdef',
      actor: { id: '7d1c2f3a-9a4b-4c5d-8e6f-112233445566', email: 'coach@spark.test', role: 'coach' },
      action: 'client.update',
      target: { type: 'client', id: '0f5c5a6e-2f5e-4d55-9d0e-6f1f1f0b9a11', label: 'client@spark.test' },
      clientIp: '203.0.113.9',
      outcome: 'succeeded',
    });
    expect(event.details).toEqual({ status: 'paused', transformationGoal: 'x'.repeat(200), customEvolutionDays: 30 });
  });

  it("gives a keyed command's repeat its first event's id, and a new one to a command that ran again or under a key on a route that takes none", async () => {
    const sent: { id: string }[] = [];
    const bus = { request: async (_pattern: string, event: { id: string }) => (sent.push(event), { recorded: true }) } as unknown as ServiceBus;
    const trail = new AuditTrail(bus, capturingLogger().logger, withinLimits, keyed);
    const idempotencyKey = randomUUID();
    for (let sends = 0; sends < 2; sends += 1) await trail.recordSuccess(requestTo(approveRoute, {}, { idempotencyKey, takesKey: true }), {});
    await trail.recordSuccess(requestTo(approveRoute, {}, { idempotencyKey: randomUUID(), takesKey: true }), {});
    for (let sends = 0; sends < 2; sends += 1) await trail.recordSuccess(requestTo(approveRoute, {}, { idempotencyKey }), {});
    // The same key, but the answer names a record the first did not: the command ran again.
    await trail.recordSuccess(requestTo(approveRoute, {}, { idempotencyKey, takesKey: true }), { id: randomUUID() });
    const ids = sent.map((event) => auditEventSchema.parse(event).id);
    expect(ids[1]).toBe(ids[0]);
    expect(new Set(ids).size).toBe(5);
  });

  it('records nothing for a route that is not audited', async () => {
    const sent: unknown[] = [];
    const bus = { request: async (_pattern: string, event: unknown) => sent.push(event) } as unknown as ServiceBus;
    await new AuditTrail(bus, capturingLogger().logger, withinLimits, keyed).recordRefusal(requestTo(undefined, {}));
    expect(sent).toEqual([]);
  });

  it('logs an event it could not record as an error with the whole event, and does not throw', async () => {
    const bus = { request: () => Promise.reject(new ServiceUnavailableError('auth', 3000)) } as unknown as ServiceBus;
    const { logger, lines } = capturingLogger();
    await expect(new AuditTrail(bus, logger, withinLimits, keyed).recordRefusal(requestTo(approveRoute, { status: 'paused' }))).resolves.toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: expect.stringMatching(/^AUDIT EVENT NOT RECORDED/) });
    expect(auditEventSchema.parse(lines[0]?.auditEvent)).toMatchObject({ outcome: 'refused', action: 'client.update', target: { label: null } });
  });

  it("logs a refusal past its limit by the actor's id alone, without their address or the client's IP", async () => {
    const sent: unknown[] = [];
    const bus = { request: async (_pattern: string, event: unknown) => sent.push(event) } as unknown as ServiceBus;
    const overLimit = { hit: () => Promise.reject(new Error('rate limited')) } as unknown as RateLimiter;
    const { logger, lines } = capturingLogger();
    await new AuditTrail(bus, logger, overLimit, keyed).recordRefusal(requestTo(approveRoute, { status: 'paused' }));
    expect(sent).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, actorId: '7d1c2f3a-9a4b-4c5d-8e6f-112233445566', action: 'client.update' });
    expect(JSON.stringify(lines[0])).not.toMatch(/coach@spark\.test|203\.0\.113\.9/);
  });
});
