import { registerAccessTokenSource } from '../../api/client';
import { keepNewDitlRequest, type PendingDitlRequest, pendingDitlRequestOf } from './pending-ditl-request';
import { sendDitlRequest } from './send-ditl-request';
import { installMemoryLocalStorage } from '../../lib/memory-local-storage.testing';

const owner = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const someoneElse = '1a2b3c4d-5e6f-4a70-8b9c-0d1e2f3a4b5c';
const started = '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a';
const answers = { firstName: 'Maya', transformationGoal: 'Run a half marathon by June' } as PendingDitlRequest['answers'];

const stored = installMemoryLocalStorage();

let signedInAs = owner;
registerAccessTokenSource({
  accessToken: async (asUser) => (asUser === undefined || asUser === signedInAs ? 'token' : null),
  renewAfterUnauthorized: async () => null,
});

type Answer = { status: number; body?: unknown } | 'offline';
interface Call {
  call: string;
  body: unknown;
}

/** The gateway, answering generate-ditl in turn; nothing else is expected. */
function serve(generateAnswers: Answer[]): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const call = `${init?.method} ${String(input)}`;
    calls.push({ call, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const answer = call === 'POST /api/ditl/generations' ? generateAnswers.shift() : undefined;
    if (answer === undefined) throw new Error(`unexpected ${call}`);
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    const body = answer.body ?? { statusCode: answer.status, code: `HTTP_${answer.status}`, message: 'No' };
    return new Response(JSON.stringify(body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  };
  return calls;
}

const generationId = () => stored.get('spark_ditl_generation_id') ?? null;

describe('sending a kept DITL request again', () => {
  const realFetch = globalThis.fetch;
  let request: PendingDitlRequest;
  beforeEach(() => {
    stored.clear();
    signedInAs = owner;
    request = keepNewDitlRequest(owner, answers);
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it.each([
    ['a 503', { status: 503 }],
    ['a 502', { status: 502 }],
    ['a lost connection', 'offline'],
  ] as const)('keeps it for another try after %s', async (_, answer) => {
    serve([answer]);
    await expect(sendDitlRequest(request)).resolves.toBe('waiting');
    expect(pendingDitlRequestOf(owner)).toEqual(request);
    expect(generationId()).toBeNull();
  });

  it.each([400, 403, 404, 429])('ends it on a %i, the server’s last word: the daily limit is not spent again', async (status) => {
    serve([{ status }]);
    await expect(sendDitlRequest(request)).resolves.toBe('refused');
    expect(pendingDitlRequestOf(owner)).toBeNull();
    expect(generationId()).toBeNull();
  });

  it('keeps the generation the server answers, and the request no longer', async () => {
    const calls = serve([{ status: 202, body: { generationId: started } }]);
    await expect(sendDitlRequest(request)).resolves.toBe('answered');
    expect(calls.map(({ call }) => call)).toEqual(['POST /api/ditl/generations']);
    expect(generationId()).toBe(started);
    expect(pendingDitlRequestOf(owner)).toBeNull();
  });

  it('sends the id chosen when the request was kept with every try, and asks nothing first: the server answers a repeat with its generation', async () => {
    const calls = serve([{ status: 503 }, 'offline', { status: 202, body: { generationId: started } }]);
    await expect(sendDitlRequest(request)).resolves.toBe('waiting');
    await expect(sendDitlRequest(pendingDitlRequestOf(owner) as PendingDitlRequest)).resolves.toBe('waiting');
    await expect(sendDitlRequest(pendingDitlRequestOf(owner) as PendingDitlRequest)).resolves.toBe('answered');
    expect(calls.map(({ call }) => call)).toEqual(Array(3).fill('POST /api/ditl/generations'));
    expect(calls.map(({ body }) => body)).toEqual(Array(3).fill({ onboardingData: answers, requestId: request.requestId }));
    expect(generationId()).toBe(started);
  });

  it('never sends it under another person’s session: refused in the browser, it waits for its owner', async () => {
    signedInAs = someoneElse;
    const calls = serve([]);
    await expect(sendDitlRequest(request)).resolves.toBe('waiting');
    expect(calls).toEqual([]);
    expect(pendingDitlRequestOf(owner)).toEqual(request);
  });
});
