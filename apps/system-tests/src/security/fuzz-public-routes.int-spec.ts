import {
  confirmAccountDeletionBodySchema,
  deckDownloadRequestSchema,
  getPostRequestSchema,
  linkInfoRequestSchema,
  listPostsRequestSchema,
  magicLinkRequestSchema,
  redeemRequestSchema,
  refreshRequestSchema,
  registerInvestorRequestSchema,
  setChallengeRequestSchema,
  createLeadRequestSchema,
  unsubscribeRemindersRequestSchema,
} from '@spark/contracts';
import { arbitraryPayload, databaseFingerprint } from '@spark/testing';
import fc from 'fast-check';
import { Client } from 'pg';
import { z } from 'zod';
import { gatewayRouteDecisions } from '../../../gateway/src/main';
import { TEST_JWT_SECRET } from '../ditl-auth';
import { type InProcessStack, startInProcessStack } from '../in-process-stack';

// Refused input (1 000 runs per route) is answered at the gateway; schema-shaped input reaches the services
// and costs a round trip each, so `npm test` sends 200 of those per route and `FUZZ_RUNS=1000` the full run.
const REFUSED_RUNS = 1000;
const SHAPED_RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/**
 * Where a route takes what a visitor sends, and the contract that input must meet. `refusal` is what input
 * outside the contract gets: a 4xx, or an answer that ignores it (sign-out always answers 204).
 */
interface FuzzTarget {
  input: 'body' | 'query' | 'params' | 'cookie';
  schema: z.ZodType;
  refusal?: '4xx' | 'ignored';
}

// Routes that read no input: anything in the query is ignored, and nothing is outside their contract.
const anyQuery = z.record(z.string(), z.string());
const imagePath = z.object({ owner: z.string(), file: z.string() });

/** Every public route and its input; a public route missing here fails the suite. */
const fuzzTargets: Record<string, FuzzTarget> = {
  'GET /health/live': { input: 'query', schema: anyQuery },
  'GET /health/ready': { input: 'query', schema: anyQuery },
  'POST /api/auth/magic-link': { input: 'body', schema: magicLinkRequestSchema },
  'POST /api/auth/link-info': { input: 'body', schema: linkInfoRequestSchema },
  'POST /api/auth/redeem': { input: 'body', schema: redeemRequestSchema },
  'POST /api/auth/refresh': { input: 'cookie', schema: refreshRequestSchema },
  'POST /api/auth/sign-out': { input: 'cookie', schema: refreshRequestSchema, refusal: 'ignored' },
  'POST /api/leads': { input: 'body', schema: createLeadRequestSchema },
  'PATCH /api/leads/challenge': { input: 'body', schema: setChallengeRequestSchema },
  'GET /api/investors/donate-page': { input: 'query', schema: anyQuery },
  'GET /api/investors/deck/preview': { input: 'query', schema: anyQuery },
  'POST /api/investors/deck-requests': { input: 'body', schema: registerInvestorRequestSchema },
  'POST /api/investors/early-access': { input: 'body', schema: registerInvestorRequestSchema },
  'POST /api/investors/deck-download': { input: 'body', schema: deckDownloadRequestSchema },
  'GET /api/log/posts': { input: 'query', schema: listPostsRequestSchema },
  'GET /api/log/posts/:slug': { input: 'params', schema: getPostRequestSchema },
  'GET /api/log/images/:owner/:file': { input: 'params', schema: imagePath },
  'POST /api/account-deletion/confirm': { input: 'body', schema: confirmAccountDeletionBodySchema },
  'GET /api/reminders/push-config': { input: 'query', schema: anyQuery },
  'POST /api/reminders/unsubscribe': { input: 'query', schema: unsubscribeRemindersRequestSchema },
};

const publicRoutes = gatewayRouteDecisions()
  .filter((decision) => decision.access === 'public')
  .map((decision) => decision.route);

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
// Headers carry bytes 0x21–0x7e only; anything else is percent-escaped, as a browser would.
const headerSafe = (text: string) => text.replace(/[^\x21-\x7e]|%/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * What the gateway receives for a generated value: a body as JSON leaves it (a key whose value is undefined is
 * dropped, so a value its schema refuses can arrive valid); strings only in queries, paths and cookies.
 */
function onTheWire(target: FuzzTarget, value: unknown): unknown {
  if (target.input === 'body') return JSON.parse(JSON.stringify(value) ?? 'null');
  if (target.input === 'cookie') return { refreshToken: headerSafe(asText((value as { refreshToken?: unknown } | null)?.refreshToken ?? value)) };
  const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  return Object.fromEntries(entries.filter(([, field]) => field !== undefined).map(([key, field]) => [headerSafe(key), headerSafe(asText(field))]));
}

describe('fuzzing every public route with fast-check', () => {
  let stack: InProcessStack;
  let db: Client;
  let requests = 0;

  beforeAll(async () => {
    stack = await startInProcessStack({ withNotifier: false, env: { JWT_SECRET: TEST_JWT_SECRET, TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'silent' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  /** Sends what `onTheWire` made of a value; answers the status. */
  const send = async (route: string, target: FuzzTarget, wire: unknown): Promise<number> => {
    const [method = 'GET', template = ''] = route.split(' ');
    const strings = (target.input === 'body' ? {} : wire) as Record<string, string>;
    let path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(strings[name] || '-'));
    if (target.input === 'query') path += `?${new URLSearchParams(strings).toString()}`;
    const headers: Record<string, string> = { 'x-forwarded-for': `198.18.${(++requests >> 8) & 255}.${requests & 255}` };
    if (target.input === 'cookie') headers.cookie = `spark_refresh=${strings.refreshToken ?? ''}`;
    let body: string | undefined;
    if (target.input === 'body') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(wire) ?? 'null';
    }
    const response = await fetch(`${stack.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    await response.arrayBuffer();
    return response.status;
  };

  it('has a fuzz target for every public route', () => {
    expect(publicRoutes.filter((route) => !fuzzTargets[route])).toEqual([]);
  });

  it('answers input its contract refuses with a 4xx and writes nothing, on every public route', async () => {
    const before = await databaseFingerprint(db);
    const validated = publicRoutes.filter((route) => fuzzTargets[route]?.schema !== anyQuery);
    await Promise.all(
      validated.map((route) => {
        const target = fuzzTargets[route] as FuzzTarget;
        const refused = arbitraryPayload(target.schema)
          .map((value) => onTheWire(target, value))
          .filter((wire) => !target.schema.safeParse(wire).success);
        const acceptable = (status: number) => (target.refusal === 'ignored' ? status < 500 : status >= 400 && status < 500);
        return fc.assert(
          fc.asyncProperty(refused, async (wire) => {
            const status = await send(route, target, wire);
            if (!acceptable(status)) throw new Error(`${route} answered ${status}`);
          }),
          { numRuns: REFUSED_RUNS },
        );
      }),
    );
    expect(await databaseFingerprint(db)).toEqual(before);
  }, 300_000);

  it('never answers 5xx to anything, valid or hostile, on any public route', async () => {
    await Promise.all(
      publicRoutes.map((route) => {
        const target = fuzzTargets[route] as FuzzTarget;
        return fc.assert(
          fc.asyncProperty(arbitraryPayload(target.schema), async (value) => {
            const status = await send(route, target, onTheWire(target, value));
            if (status >= 500) throw new Error(`${route} answered ${status}`);
          }),
          { numRuns: SHAPED_RUNS },
        );
      }),
    );
  }, 300_000);
});
