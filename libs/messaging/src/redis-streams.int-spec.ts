import 'reflect-metadata';
import { createHook } from 'node:async_hooks';
import { Controller, Module, type INestMicroservice, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { serviceOf, type CreateLeadRequest, type Lead } from '@spark/contracts';
import { currentCorrelationId, runWithCorrelationId } from '@spark/logging';
import Redis from 'ioredis';
import { lastValueFrom } from 'rxjs';
import { testContract } from './__fixtures__/test-contract';
import { deleteKeysUnder, eventually, quietLogger, redisUrl, uniquePrefix } from './__fixtures__/test-support';
import { DomainError } from '@spark/errors';
import { ServiceUnavailableError } from './service-unavailable';
import { RedisStreamsClient } from './redis-streams.client';
import { RedisStreamsServer } from './redis-streams.server';
import { ServiceBus } from './service-bus';
import { developmentSigningKeys } from '@spark/config';
import { signedLeadSubmission } from './lead-submissions';
import { replyListKey, requestStreamKey } from './stream-keys';

const prefix = uniquePrefix();
const started: INestMicroservice[] = [];
let client: RedisStreamsClient;
/** What the client reported to its metrics observer: the patterns that got no answer in time. */
const timedOut: string[] = [];
let bus: ServiceBus;

interface StartOptions {
  reclaimIdleMs?: number;
  /** Answers contract patterns of the service added after these tests were written. */
  stubOtherContractPatterns?: boolean;
  prefix?: string;
}

async function startService(service: string, module: Type, options: StartOptions = {}) {
  const { stubOtherContractPatterns, ...serverOptions } = options;
  const server = new RedisStreamsServer({ redisUrl, prefix, service, logger: quietLogger, contract: testContract, ...serverOptions });
  const app = await NestFactory.createMicroservice(module, { strategy: server, logger: false });
  await app.init();
  if (stubOtherContractPatterns) {
    const unhandled = Object.keys(testContract.requests).filter((pattern) => serviceOf(pattern) === service && !server.getHandlers().has(pattern));
    for (const pattern of unhandled) server.addHandler(pattern, () => Promise.resolve(null));
  }
  await app.listen();
  started.push(app);
  return app;
}

async function rejectionOf(promise: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw error;
  return error;
}

beforeAll(async () => {
  client = new RedisStreamsClient({
    app: 'test',
    redisUrl,
    prefix,
    logger: quietLogger,
    observer: { answered: () => undefined, timedOut: (pattern) => timedOut.push(pattern) },
  });
  bus = new ServiceBus(client);
  await client.connect();
});

afterAll(async () => {
  await client.close();
  await Promise.all(started.map((app) => app.close()));
  await deleteKeysUnder(prefix);
});

describe('two replicas of a service', () => {
  const replicasOf = new Map<number, string[]>();

  function countingReplica(replica: string): Type {
    @Controller()
    class CountingController {
      @MessagePattern('count.hit')
      hit(@Payload() data: { n: number }) {
        replicasOf.set(data.n, [...(replicasOf.get(data.n) ?? []), replica]);
        return { n: data.n, replica };
      }
    }
    @Module({ controllers: [CountingController] })
    class CountingModule {}
    return CountingModule;
  }

  it('handle each of 1 000 requests exactly once, answer all, and share the load', async () => {
    await startService('count', countingReplica('a'));
    await startService('count', countingReplica('b'));

    const numbers = Array.from({ length: 1_000 }, (_, n) => n);
    const answers = await Promise.all(numbers.map((n) => client.request('count.hit', { n })));

    expect(answers).toEqual(numbers.map((n) => ({ n, replica: expect.any(String) })));
    expect(numbers.filter((n) => replicasOf.get(n)?.length !== 1)).toEqual([]);
    const handledBy = [...replicasOf.values()].flat();
    expect(handledBy.filter((replica) => replica === 'a').length).toBeGreaterThan(0);
    expect(handledBy.filter((replica) => replica === 'b').length).toBeGreaterThan(0);
  });

  it('send one request for callers of one chosen request id at once, and give each of them its answer', async () => {
    const n = 1_000_000;
    const answers = await Promise.all([1, 2, 3].map(() => client.request('count.hit', { n }, undefined, undefined, 'keyed:one-double-click')));
    expect(answers).toEqual([1, 2, 3].map(() => answers[0]));
    expect(replicasOf.get(n)).toHaveLength(1);
  });
});

describe('a slow handler on a live replica', () => {
  it('is not taken over by another replica while it still runs', async () => {
    let executions = 0;
    @Controller()
    class SlowController {
      @MessagePattern('slow.work')
      async work() {
        executions += 1;
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        return 'done';
      }
    }
    @Module({ controllers: [SlowController] })
    class SlowModule {}
    await startService('slow', SlowModule, { reclaimIdleMs: 300 });
    const answer = client.request('slow.work', {}, 5_000);
    await eventually(() => executions === 1);
    // Out of phase with the first replica's own reclaim ticks, so only refreshing protects the entry.
    await new Promise((resolve) => setTimeout(resolve, 450));
    await startService('slow', SlowModule, { reclaimIdleMs: 300 });

    await expect(answer).resolves.toBe('done');
    expect(executions).toBe(1);
  });
});

describe('a read whose answer is the same for every caller', () => {
  it('is read once for the callers asking while a read is in flight, and that read starts after they asked', async () => {
    const readsStarted: number[] = [];
    let releaseFirstRead = () => undefined as void;
    const firstReadHeld = new Promise<void>((resolve) => (releaseFirstRead = resolve));
    @Controller()
    class SharedReadController {
      @MessagePattern('shared.read')
      async read() {
        const read = readsStarted.push(readsStarted.length + 1);
        if (read === 1) await firstReadHeld;
        return { read };
      }
    }
    @Module({ controllers: [SharedReadController] })
    class SharedReadModule {}
    await startService('shared', SharedReadModule);
    const sharing = new ServiceBus(client, { 'shared.read': 'the same answer for every caller in this test' });
    const ask = () => sharing.request('shared.read' as never, {} as never) as Promise<unknown>;

    const first = ask();
    await eventually(() => readsStarted.length === 1);
    const askedWhileInFlight = [ask(), ask(), ask()];
    releaseFirstRead();

    expect(await first).toEqual({ read: 1 });
    expect(await Promise.all(askedWhileInFlight)).toEqual([{ read: 2 }, { read: 2 }, { read: 2 }]);
    expect(readsStarted).toEqual([1, 2]);
  });

  it('is shared only between callers who gave the same deadline', async () => {
    let releaseFirstRead = () => undefined as void;
    const firstReadHeld = new Promise<void>((resolve) => (releaseFirstRead = resolve));
    let releaseLaterReads = () => undefined as void;
    const laterReadsHeld = new Promise<void>((resolve) => (releaseLaterReads = resolve));
    let readsStarted = 0;
    @Controller()
    class DeadlineReadController {
      @MessagePattern('deadline.read')
      async read() {
        const read = (readsStarted += 1);
        await (read === 1 ? firstReadHeld : laterReadsHeld);
        return { read };
      }
    }
    @Module({ controllers: [DeadlineReadController] })
    class DeadlineReadModule {}
    await startService('deadline', DeadlineReadModule);
    const sharing = new ServiceBus(client, { 'deadline.read': 'the same answer for every caller in this test' });
    const ask = (options?: { timeoutMs: number }) => sharing.request('deadline.read' as never, {} as never, options) as Promise<unknown>;

    const first = ask();
    await eventually(() => readsStarted === 1);
    const hurried = ask({ timeoutMs: 300 });
    const patient = ask();
    releaseFirstRead();

    expect(await rejectionOf(hurried)).toBeInstanceOf(ServiceUnavailableError);
    releaseLaterReads();
    await expect(first).resolves.toEqual({ read: 1 });
    // The hurried caller's read was the second, sent at once under its own deadline; the patient caller's the third.
    await expect(patient).resolves.toEqual({ read: 3 });
  });
});

describe('a closed server', () => {
  // A timer still pending would hold the server, and whatever it reaches, until it fired.
  it('leaves no timer of its own behind', async () => {
    const server = new RedisStreamsServer({ redisUrl, prefix: uniquePrefix(), service: 'idle', logger: quietLogger, contract: testContract });
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error as Error) : resolve())));
    const startedWhileClosing = new Set<number>();
    let closing = true;
    const timers = createHook({
      init: (id, type) => void (closing && type === 'Timeout' && startedWhileClosing.add(id)),
      destroy: (id) => void startedWhileClosing.delete(id),
    }).enable();
    try {
      await server.close();
      closing = false;
      // ioredis keeps a timer until each connection's socket has closed.
      await eventually(() => startedWhileClosing.size === 0, 3_000);
    } finally {
      timers.disable();
    }
  });
});

describe('a request to a service that is down', () => {
  it('rejects with ServiceUnavailableError naming the service once its deadline passes', async () => {
    const startedAt = Date.now();
    const error = await rejectionOf(client.request('nobody.ping', {}, 300));
    const elapsed = Date.now() - startedAt;

    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.status).toBe(503);
    expect(error.details?.service).toBe('nobody-service');
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(800);
    expect(timedOut).toContain('nobody.ping');
  });

  it('is skipped, not executed, when the service starts after the caller gave up', async () => {
    let executions = 0;
    @Controller()
    class LateController {
      @MessagePattern('late.write')
      write() {
        executions += 1;
        return 'done';
      }
    }
    @Module({ controllers: [LateController] })
    class LateModule {}

    await rejectionOf(client.request('late.write', {}, 100));
    await startService('late', LateModule);
    const redis = new Redis(redisUrl);
    await eventually(async () => (await redis.xlen(requestStreamKey(prefix, 'late'))) === 0);
    redis.disconnect();

    expect(executions).toBe(0);
    await expect(client.request('late.write', {})).resolves.toBe('done');
    expect(executions).toBe(1);
  });

  it('fails promptly when the client closes', async () => {
    const closing = new RedisStreamsClient({ app: 'test', redisUrl, prefix, logger: quietLogger });
    const pending = rejectionOf(closing.request('nobody.ping', {}, 10_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    await closing.close();

    expect((await pending).code).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - startedAt).toBeLessThan(500);
  });
});

describe('a contract service', () => {
  const events: unknown[] = [];
  // The gateway's statement a lead carries for the notifier; the transport passes it on like any field.
  const submission = signedLeadSubmission(developmentSigningKeys(), { email: 'ada@example.com', role: 'client' });
  let receivedLead: unknown;

  @Controller()
  class LeadsController {
    @MessagePattern('leads.create')
    create(@Payload() data: CreateLeadRequest) {
      receivedLead = data;
      const lead: Lead = {
        id: '7f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
        email: data.email,
        role: data.role ?? 'client',
        fullName: null,
        company: null,
        interest: data.interest ?? null,
        approvalStatus: 'pending',
        primaryChallenge: null,
        userCreated: false,
        createdAt: new Date('2025-01-01T00:00:00Z').toISOString(),
      };
      return Promise.resolve({ lead, challengeToken: 'secret' });
    }

    @MessagePattern('leads.set-challenge')
    setChallenge(): never {
      throw new DomainError('NOT_FOUND', 'No lead has this token');
    }

    @MessagePattern('leads.whoami')
    whoami() {
      return { correlationId: currentCorrelationId() };
    }

    @MessagePattern('leads.explode')
    explode(): never {
      throw new Error('database password leaked in this message');
    }

    @EventPattern('leads.noted')
    noted(@Payload() data: unknown) {
      events.push(data);
    }
  }
  @Module({ controllers: [LeadsController] })
  class LeadsModule {}

  beforeAll(() => startService('leads', LeadsModule, { stubOtherContractPatterns: true }));

  it('answers an invalid payload with VALIDATION_FAILED and its field errors', async () => {
    const error = await rejectionOf(bus.request('leads.create', { email: 'not-an-email', role: 'client', submission }));

    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.details?.fieldErrors?.email).toEqual(['Enter a valid email address']);
  });

  it('hands the handler the parsed payload (defaults applied, e-mail lower-cased)', async () => {
    const answer = await bus.request('leads.create', { email: '  Ada@Example.COM ', submission });

    expect(receivedLead).toEqual({ email: 'ada@example.com', role: 'client', submission });
    expect(answer.lead.email).toBe('ada@example.com');
  });

  it('passes a DomainError thrown by the handler to the caller with its code and message', async () => {
    const error = await rejectionOf(bus.request('leads.set-challenge', { token: 'x'.repeat(32), primaryChallenge: 'consistency' }));

    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('No lead has this token');
  });

  it('hides an unexpected error behind INTERNAL', async () => {
    const error = await rejectionOf(client.request('leads.explode', {}));

    expect(error.code).toBe('INTERNAL');
    expect(error.message).toBe('Internal error');
  });

  it('answers INTERNAL when a handler breaks its own response contract', async () => {
    @Controller()
    class BrokenLeadsController {
      @MessagePattern('leads.create')
      create() {
        return { lead: { id: 'not-a-uuid' } };
      }
    }
    @Module({ controllers: [BrokenLeadsController] })
    class BrokenLeadsModule {}
    // Its own namespace, so the well-behaved leads replica above cannot take the request.
    const brokenPrefix = uniquePrefix();
    const app = await startService('leads', BrokenLeadsModule, {
      prefix: brokenPrefix,
      stubOtherContractPatterns: true,
    });
    const brokenClient = new RedisStreamsClient({ app: 'test', redisUrl, prefix: brokenPrefix, logger: quietLogger });
    try {
      const error = await rejectionOf(new ServiceBus(brokenClient).request('leads.create', { email: 'a@b.co', submission }));
      expect(error.code).toBe('INTERNAL');
    } finally {
      await brokenClient.close();
      started.splice(started.indexOf(app), 1);
      await app.close();
      await deleteKeysUnder(brokenPrefix);
    }
  });

  it('carries the caller correlation id to the handler', async () => {
    const answer = await runWithCorrelationId('corr-42', () => client.request('leads.whoami', {}));

    expect(answer).toEqual({ correlationId: 'corr-42' });
  });

  it('delivers an event of its contract to an @EventPattern handler', async () => {
    await lastValueFrom(client.emit('leads.noted', { note: 'hello' }), { defaultValue: undefined });

    await eventually(() => events.length === 1);
    expect(events).toEqual([{ note: 'hello' }]);
  });

  describe('an entry written straight into the stream', () => {
    const stream = requestStreamKey(prefix, 'leads');
    let redis: Redis;
    beforeAll(() => {
      redis = new Redis(redisUrl);
    });
    afterAll(() => redis.disconnect());
    beforeEach(() => {
      receivedLead = undefined;
      events.length = 0;
    });
    const handled = () => eventually(async () => (await redis.xlen(stream)) === 0);
    const lead = JSON.stringify({ email: 'mallory@example.com', interest: 'crafted' });

    it('runs nothing for a request pattern without a request id, and acknowledges it', async () => {
      await redis.xadd(stream, '*', 'p', 'leads.create', 'd', lead, 'c', 'crafted');

      await handled();
      expect(receivedLead).toBeUndefined();
      expect(await redis.xpending(stream, 'leads')).toEqual([0, null, null, null]);
    });

    it('runs nothing for an event its contract refuses, nor for a pattern with no contract', async () => {
      await redis.xadd(stream, '*', 'p', 'leads.noted', 'd', JSON.stringify({ note: 42 }), 'c', 'crafted');
      await redis.xadd(stream, '*', 'p', 'leads.noted', 'd', '{not json', 'c', 'crafted');
      await redis.xadd(stream, '*', 'p', 'leads.unknown', 'd', JSON.stringify({ note: 'x' }), 'c', 'crafted');
      await lastValueFrom(client.emit('leads.noted', { note: 'the valid one' }), { defaultValue: undefined });

      await handled();
      await eventually(() => events.length === 1);
      expect(events).toEqual([{ note: 'the valid one' }]);
    });

    it('never answers into a key that is not a reply list, and runs nothing for it', async () => {
      const victim = `${prefix}:bull:mail:wait`;
      const budget = '5000';
      await redis.xadd(stream, '*', 'p', 'leads.create', 'd', lead, 'c', 'crafted', 'i', 'x1', 'r', victim, 'b', budget);
      await redis.xadd(stream, '*', 'p', 'leads.create', 'd', lead, 'c', 'crafted', 'i', 'x2', 'b', budget);

      await handled();
      expect(receivedLead).toBeUndefined();
      expect(await redis.exists(victim)).toBe(0);
    });

    it('answers a request for a pattern outside the contract with an error, running nothing', async () => {
      const replyTo = replyListKey(prefix, 'test', '0f0e0d0c-0b0a-4009-8807-060504030201');
      await redis.xadd(stream, '*', 'p', 'leads.drop-table', 'd', '{}', 'c', 'crafted', 'i', 'x3', 'r', replyTo, 't', String(Date.now() + 5_000));

      const [, reply] = (await redis.blpop(replyTo, 5)) ?? [];
      expect(JSON.parse(reply ?? '{}')).toEqual({ id: 'x3', error: { code: 'NOT_FOUND', message: 'Unknown message pattern leads.drop-table' } });
    });
  });

  it('refuses to start a replica that handles a pattern outside its contract', async () => {
    @Controller()
    class RogueController {
      @MessagePattern('leads.backdoor')
      backdoor() {
        return null;
      }

      @EventPattern('leads.whispered')
      whispered() {
        return null;
      }
    }
    @Module({ controllers: [RogueController] })
    class RogueModule {}

    await expect(startService('leads', RogueModule, { stubOtherContractPatterns: true })).rejects.toThrow(
      /outside its contract: leads\.backdoor, leads\.whispered/,
    );
  });

  it('refuses to start a replica that lacks a handler for a contract pattern of its service', async () => {
    @Controller()
    class HalfLeadsController {
      @MessagePattern('leads.create')
      create() {
        return null;
      }
    }
    @Module({ controllers: [HalfLeadsController] })
    class HalfLeadsModule {}

    await expect(startService('leads', HalfLeadsModule)).rejects.toThrow(/leads\.set-challenge/);
  });
});
