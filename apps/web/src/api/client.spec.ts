import { apiRequest, ApiError, registerAccessTokenSource } from './client';

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
