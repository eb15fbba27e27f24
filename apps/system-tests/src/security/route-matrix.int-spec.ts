import { randomUUID } from 'node:crypto';
import { createLeadResponseSchema, generateDitlResponseSchema, recordSparkResponseSchema, type UserRole } from '@spark/contracts';
import { captureSpark, eventually, onboardingAnswers, TINY_PNG } from '@spark/testing';
import { Client } from 'pg';
import { gatewayRouteDecisions } from '../../../gateway/src/main';
import { createSignedInUser, TEST_JWT_SECRET } from '../ditl-auth';
import { type InProcessStack, startInProcessStack } from '../in-process-stack';
import { expectedCell, type Identity, identities, routeExpectations } from './route-expectations';

describe('every gateway route, called as anonymous, client, other client, coach and admin', () => {
  let stack: InProcessStack;
  let db: Client;
  const tokens: Partial<Record<Identity, string>> = {};
  const params: Record<string, string> = {};
  let requests = 0;

  const call = (method: string, path: string, identity: Identity, body?: string | FormData, contentType = 'application/json') =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        // Each request from its own address, so per-IP limits never stand in for an access decision.
        'x-forwarded-for': `203.0.113.${++requests % 250}`,
        ...(tokens[identity] ? { authorization: `Bearer ${tokens[identity]}` } : {}),
        ...(body !== undefined && typeof body === 'string' ? { 'content-type': contentType } : {}),
      },
      body,
    });

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { JWT_SECRET: TEST_JWT_SECRET, TRUST_PROXY: '127.0.0.1', PUBLIC_URL: 'http://spark.test' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const signedIn = async (identity: Identity, role: UserRole) => {
      const user = await createSignedInUser(db, `${identity.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`, role);
      tokens[identity] = user.token;
      return user;
    };
    const owner = await signedIn('client', 'client');
    await signedIn('otherClient', 'client');
    await signedIn('coach', 'coach');
    await signedIn('admin', 'admin');

    // The owner's resources: the other client must not reach them, coaches and admins may.
    const capture = await captureSpark(stack.baseUrl, { authorization: `Bearer ${owner.token}` }, { bytes: TINY_PNG });
    params.id = recordSparkResponseSchema.parse(await capture.json()).spark.id;
    const generation = await call('POST', '/api/ditl/generations', 'client', JSON.stringify({ onboardingData: onboardingAnswers() }));
    params.generationId = generateDitlResponseSchema.parse(await generation.json()).generationId;
    await eventually(
      async () => (await db.query(`SELECT 1 FROM ditl.generations WHERE id = $1 AND status = 'completed'`, [params.generationId])).rowCount === 1,
      20_000,
      "the owner's finished presentation",
    );
    const lead = await call('POST', '/api/leads', 'anonymous', JSON.stringify({ email: `lead-${randomUUID().slice(0, 8)}@example.com` }));
    params.leadId = createLeadResponseSchema.parse(await lead.json()).lead.id;
    Object.assign(params, { userId: owner.id, campaignId: randomUUID(), slug: 'no-such-post', owner: owner.id, file: 'deck.pdf' });
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const fill = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? randomUUID());
  // A route that ends its caller's sessions comes last, so the caller's token still holds for every other one.
  const routesInTurn = () =>
    gatewayRouteDecisions().sort(
      (a, b) => Number(!!routeExpectations[a.route]?.endsCallersSessions) - Number(!!routeExpectations[b.route]?.endsCallersSessions),
    );

  // A 503 says a service was too slow under the load of the whole suite: it is no access decision, so the request is
  // made again before it is judged.
  const answerOtherThanUnavailable = async (send: () => Promise<Response>): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const response = await send();
      if (response.status !== 503 || attempt === 3) return response;
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  };

  // Anonymous first and admin last: a coach's approve must not be what stops the client's attempt.
  for (const identity of identities) {
    it(`answers ${identity} as the matrix says on every route`, async () => {
      const outcomes: string[] = [];
      for (const { route } of routesInTurn()) {
        const expectation = routeExpectations[route];
        if (!expectation) throw new Error(`${route} has no decision in route-expectations.ts`);
        const [method = 'GET', path = ''] = route.split(' ');
        const response = await answerOtherThanUnavailable(() => call(method, fill(path), identity, method === 'GET' ? undefined : '{}'));
        const body = await response.text();
        const expected = expectedCell(expectation, identity);
        const ownerMustSucceed = identity === 'client' && expectation.cells?.otherClient === 404;
        const allowed = ![401, 403].includes(response.status) && response.status < 500 && (!ownerMustSucceed || response.status < 300);
        const matches = expected === 'ok' ? allowed : response.status === expected;
        if (!matches) outcomes.push(`${route}: expected ${expected}, got ${response.status} ${body.slice(0, 200)}`);
      }
      expect(outcomes).toEqual([]);
    });
  }
});
