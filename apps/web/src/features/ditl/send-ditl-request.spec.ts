import type { CurrentDitlResponse, DitlGenerationSummary } from '@spark/contracts';
import { registerAccessTokenSource } from '../../api/client';
import { keepDitlRequest, type PendingDitlRequest, pendingDitlRequestOf } from './pending-ditl-request';
import { sendDitlRequest } from './send-ditl-request';
import { installMemoryLocalStorage } from '../../lib/memory-local-storage.testing';

const owner = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const someoneElse = '1a2b3c4d-5e6f-4a70-8b9c-0d1e2f3a4b5c';
const started = '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a';
const request: PendingDitlRequest = {
  userId: owner,
  answers: { firstName: 'Maya', transformationGoal: 'Run a half marathon by June' } as PendingDitlRequest['answers'],
  onboardingCompletedAt: '2026-12-01T12:00:00.000Z',
};

const stored = installMemoryLocalStorage();

let signedInAs = owner;
registerAccessTokenSource({
  accessToken: async (asUser) => (asUser === undefined || asUser === signedInAs ? 'token' : null),
  renewAfterUnauthorized: async () => null,
});

const generation = (createdAt: string, status: DitlGenerationSummary['status'] = 'queued'): DitlGenerationSummary => ({
  generationId: started,
  status,
  progress: 0,
  planner: null,
  createdAt,
  completedAt: null,
});

type Answer = { status: number; body?: unknown } | 'offline';

/** The gateway: the newest generation it reports, and its answers to generate-ditl in turn. */
function serve(latest: DitlGenerationSummary | null, generateAnswers: Answer[]): string[] {
  const calls: string[] = [];
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const call = `${init?.method} ${String(input)}`;
    calls.push(call);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (call === 'GET /api/ditl/generations/current') return json(200, { generation: null, latest } satisfies CurrentDitlResponse);
    const answer = generateAnswers.shift();
    if (answer === undefined) throw new Error(`unexpected ${call}`);
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    return json(answer.status, answer.body ?? { statusCode: answer.status, code: `HTTP_${answer.status}`, message: 'No' });
  };
  return calls;
}

const generationId = () => stored.get('spark_ditl_generation_id') ?? null;

describe('sending a kept DITL request again', () => {
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    stored.clear();
    signedInAs = owner;
    keepDitlRequest(request);
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it.each([
    ['a 503', { status: 503 }],
    ['a 502', { status: 502 }],
    ['a lost connection', 'offline'],
  ] as const)('keeps it for another try after %s', async (_, answer) => {
    serve(null, [answer]);
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('waiting');
    expect(pendingDitlRequestOf(owner)).toEqual(request);
    expect(generationId()).toBeNull();
  });

  it.each([400, 403, 404, 429])('ends it on a %i, the server’s last word: the daily limit is not spent again', async (status) => {
    serve(null, [{ status }]);
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('refused');
    expect(pendingDitlRequestOf(owner)).toBeNull();
    expect(generationId()).toBeNull();
  });

  it('keeps the generation the server answers, and the request no longer', async () => {
    const calls = serve(null, [{ status: 202, body: { generationId: started } }]);
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('answered');
    expect(calls).toEqual(['GET /api/ditl/generations/current', 'POST /api/ditl/generations']);
    expect(generationId()).toBe(started);
    expect(pendingDitlRequestOf(owner)).toBeNull();
  });

  it('sends nothing twice: a generation started since onboarding finished (its answer lost) is the one kept', async () => {
    const calls = serve(generation('2026-12-01T12:00:01.000Z', 'completed'), []);
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('answered');
    expect(calls).toEqual(['GET /api/ditl/generations/current']);
    expect(generationId()).toBe(started);
  });

  it('sends it when the newest generation is older than this onboarding', async () => {
    const calls = serve(generation('2026-11-20T08:00:00.000Z', 'completed'), [{ status: 202, body: { generationId: started } }]);
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('answered');
    expect(calls).toEqual(['GET /api/ditl/generations/current', 'POST /api/ditl/generations']);
  });

  it('takes the unfinished generation a conflict (409) says exists', async () => {
    let latest: DitlGenerationSummary | null = null;
    const calls: string[] = [];
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
      calls.push(`${init?.method} ${String(input)}`);
      if (init?.method === 'POST') {
        latest = generation('2026-12-01T12:00:02.000Z');
        return new Response(JSON.stringify({ statusCode: 409, code: 'CONFLICT', message: 'Already generating' }), { status: 409 });
      }
      return new Response(JSON.stringify({ generation: null, latest }), { status: 200 });
    };
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('answered');
    expect(calls).toEqual(['GET /api/ditl/generations/current', 'POST /api/ditl/generations', 'GET /api/ditl/generations/current']);
    expect(generationId()).toBe(started);
  });

  it('asks nothing first on the first try, which nothing has reached the server before', async () => {
    const calls = serve(null, [{ status: 202, body: { generationId: started } }]);
    await sendDitlRequest(request, { askFirst: false });
    expect(calls).toEqual(['POST /api/ditl/generations']);
  });

  it('never sends it under another person’s session: refused in the browser, it waits for its owner', async () => {
    signedInAs = someoneElse;
    const calls = serve(null, []);
    await expect(sendDitlRequest(request, { askFirst: true })).resolves.toBe('waiting');
    expect(calls).toEqual([]);
    expect(pendingDitlRequestOf(owner)).toEqual(request);
  });

  it('is not another person’s to send: one kept by someone else counts as none', () => {
    expect(pendingDitlRequestOf(someoneElse)).toBeNull();
  });
});
