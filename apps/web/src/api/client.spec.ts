import { apiRequest, ApiError, registerAccessTokenSource } from './client';
import { uploadDeadlineMs } from './deadlines';

type Call = { url: string; authorization: string | undefined };

function answerBy(statusForToken: (authorization: string | undefined) => number): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const authorization = (init?.headers as Record<string, string> | undefined)?.Authorization;
    calls.push({ url: String(input), authorization });
    const status = statusForToken(authorization);
    const body = status === 200 ? { ok: true } : { statusCode: status, code: 'UNAUTHENTICATED', message: 'Expired' };
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  };
  return calls;
}

describe('apiRequest with a session', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('renews once after a 401 and retries with the new token', async () => {
    const renewals: string[] = [];
    registerAccessTokenSource({
      accessToken: async () => 'old',
      renewAfterUnauthorized: async (rejected) => {
        renewals.push(rejected);
        return 'new';
      },
    });
    const calls = answerBy((authorization) => (authorization === 'Bearer new' ? 200 : 401));
    await expect(apiRequest('GET', '/auth/user')).resolves.toEqual({ ok: true });
    expect(calls.map((call) => call.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(renewals).toEqual(['old']);
  });

  it('gives up with the 401 when the session cannot be renewed', async () => {
    registerAccessTokenSource({ accessToken: async () => 'old', renewAfterUnauthorized: async () => null });
    const calls = answerBy(() => 401);
    await expect(apiRequest('GET', '/auth/user')).rejects.toEqual(new ApiError(401, 'UNAUTHENTICATED', 'Expired'));
    expect(calls).toHaveLength(1);
  });

  it('answers an error by its status alone when the caller reads no error body', async () => {
    const calls = answerBy(() => 401);
    await expect(apiRequest('POST', '/auth/refresh', undefined, { authenticate: false, readErrorBody: false })).rejects.toMatchObject({
      status: 401,
      code: 'HTTP_401',
    });
    expect(calls).toHaveLength(1);
  });

  it('sends session calls on the cookie alone', async () => {
    registerAccessTokenSource({ accessToken: async () => 'old', renewAfterUnauthorized: async () => 'new' });
    const calls = answerBy(() => 401);
    await expect(apiRequest('POST', '/auth/refresh', undefined, { authenticate: false })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toEqual([{ url: '/api/auth/refresh', authorization: undefined }]);
  });
});

describe('apiRequest past its deadline', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
    globalThis.__SPARK_TEST__ = undefined;
  });

  /** A server that takes the request and never answers; the stub settles only as the browser's fetch does, on abort. */
  function neverAnswering(): { signals: (AbortSignal | undefined)[] } {
    const signals: (AbortSignal | undefined)[] = [];
    globalThis.fetch = (_input: string | URL | Request, init?: RequestInit) => {
      signals.push(init?.signal ?? undefined);
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    };
    return { signals };
  }

  it('gives up a request that goes unanswered as a network failure, so the caller can try again', async () => {
    globalThis.__SPARK_TEST__ = { answerDeadlineMs: 50 };
    const { signals } = neverAnswering();
    const failure = await apiRequest('POST', '/sparks', { note: 'x' }, { authenticate: false }).catch((error: unknown) => error);
    expect(failure).toEqual(new ApiError(0, 'NETWORK', 'Spark did not answer in time'));
    expect(signals).toHaveLength(1);
  });

  it('gives a form’s file the time to send it very slowly on top of the answer’s deadline', async () => {
    globalThis.__SPARK_TEST__ = { answerDeadlineMs: 50 };
    expect(uploadDeadlineMs(0)).toBe(50);
    expect(uploadDeadlineMs(1024 * 60)).toBe(60_050);
  });
});
