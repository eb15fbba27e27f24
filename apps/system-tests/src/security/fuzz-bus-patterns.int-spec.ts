import { developmentSigningKeys } from '@spark/config';
import { busCallers, mayCall, type PatternName, patterns } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { DomainError } from '@spark/errors';
import { RedisStreamsClient } from '@spark/messaging';
import { arbitraryPayload, databaseFingerprint } from '@spark/testing';
import fc from 'fast-check';
import { Client } from 'pg';
import type { z } from 'zod';
import { TEST_JWT_SECRET } from '../ditl-auth';
import { type InProcessStack, startInProcessStack } from '../in-process-stack';

// The gate alone gets 1 000 runs per pattern in fuzz-bus-gate.spec.ts; here every sample costs a round trip
// through Redis and a service, so `npm test` sends 200 per pattern and `FUZZ_RUNS=1000` the full run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
// Requests in flight at once: enough to keep every service busy without queueing past the deadline.
const IN_FLIGHT = 48;

/** One example per pattern and code, so a report stays readable. */
const summary = (outcomes: Outcome[]) => [...new Map(outcomes.map((outcome) => [`${outcome.pattern} ${outcome.code}`, outcome])).values()];

interface Outcome {
  pattern: string;
  payload: unknown;
  code: string;
}

const patternNames = Object.keys(patterns) as PatternName[];
const schemaOf = (pattern: PatternName): z.ZodType => patterns[pattern].request;
// Each pattern goes as an app that may send it; refusing every other sender is bus-callers.int-spec.ts's part.
const senderOf = (pattern: string) =>
  mayCall('gateway', pattern) ? 'gateway' : ((busCallers as Partial<Record<string, readonly string[]>>)[pattern]?.[0] ?? 'gateway');

/** Runs `task` over `items`, at most `limit` at a time. */
async function inBatches<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = items[next++]; item !== undefined; item = items[next++]) await task(item);
    }),
  );
}

describe('fuzzing every bus pattern with fast-check, through the real transport', () => {
  let stack: InProcessStack;
  let db: Client;
  const clients = new Map<string, RedisStreamsClient>();

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    // A client per sending app, with its keys: it sends whatever it is given, as that app compromised could.
    for (const app of new Set(patternNames.map(senderOf))) {
      const client = new RedisStreamsClient({
        app,
        signingKeys: developmentSigningKeys(),
        redisUrl: stack.env.REDIS_URL ?? '',
        prefix: stack.env.BUS_PREFIX,
        timeoutMs: 15_000,
        logger: createLogger('fuzz', 'silent'),
      });
      await client.connect();
      clients.set(app, client);
    }
  });
  afterAll(async () => {
    await Promise.all([...clients.values()].map((client) => client.close()));
    await db.end();
    await stack.stop();
  });

  /** The error code a request ends with, or `ok`. */
  const send = async (pattern: string, payload: unknown): Promise<string> =>
    (clients.get(senderOf(pattern)) as RedisStreamsClient).request(pattern, payload).then(
      () => 'ok',
      (error: unknown) => (error instanceof DomainError ? error.code : 'THROWN'),
    );

  // Classified as the service will see them: after JSON, which drops undefined fields.
  const samples = patternNames.flatMap((pattern) =>
    fc
      .sample(arbitraryPayload(schemaOf(pattern)), { numRuns: RUNS })
      .map((payload): { pattern: PatternName; payload: unknown } => ({ pattern, payload: JSON.parse(JSON.stringify(payload ?? null)) })),
  );
  const refused = samples.filter(({ pattern, payload }) => !schemaOf(pattern).safeParse(payload).success);
  const accepted = samples.filter(({ pattern, payload }) => schemaOf(pattern).safeParse(payload).success);

  it(`refuses every payload outside its contract with VALIDATION_FAILED and writes nothing (${RUNS} samples per pattern)`, async () => {
    const before = await databaseFingerprint(db);
    const unexpected: Outcome[] = [];
    await inBatches(refused, IN_FLIGHT, async ({ pattern, payload }) => {
      const code = await send(pattern, payload);
      if (code !== 'VALIDATION_FAILED') unexpected.push({ pattern, payload, code });
    });
    expect(summary(unexpected)).toEqual([]);
    expect(await databaseFingerprint(db)).toEqual(before);
  }, 300_000);

  it('answers every payload its contract accepts without an internal error', async () => {
    const unexpected: Outcome[] = [];
    await inBatches(accepted, IN_FLIGHT, async ({ pattern, payload }) => {
      const code = await send(pattern, payload);
      if (code === 'INTERNAL' || code === 'SERVICE_UNAVAILABLE' || code === 'THROWN') unexpected.push({ pattern, payload, code });
    });
    expect(summary(unexpected)).toEqual([]);
  }, 300_000);
});
