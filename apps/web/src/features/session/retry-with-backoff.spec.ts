import { retryWithBackoff } from './retry-with-backoff';

describe('retryWithBackoff', () => {
  const transient = new Error('network');
  const definite = new Error('unauthorized');
  const options = (delays: number[]) => ({
    retries: 3,
    firstDelayMs: 200,
    isTransient: (error: unknown) => error === transient,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  });

  it('waits 200 ms, then doubles, between transient failures until one succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await retryWithBackoff(async () => {
      calls += 1;
      if (calls < 4) throw transient;
      return 'session';
    }, options(delays));
    expect(result).toBe('session');
    expect(delays).toEqual([200, 400, 800]);
  });

  it('gives up after the last retry with the last error', async () => {
    const delays: number[] = [];
    await expect(retryWithBackoff(() => Promise.reject(transient), options(delays))).rejects.toBe(transient);
    expect(delays).toEqual([200, 400, 800]);
  });

  it('does not retry a definite failure', async () => {
    const delays: number[] = [];
    await expect(retryWithBackoff(() => Promise.reject(definite), options(delays))).rejects.toBe(definite);
    expect(delays).toEqual([]);
  });
});
