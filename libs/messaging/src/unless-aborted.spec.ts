import { getEventListeners } from 'node:events';
import { abortable, unlessAborted } from './unless-aborted';

describe('unlessAborted', () => {
  it("gives the work's value while the signal holds, and leaves no listener on it", async () => {
    const stopping = new AbortController();
    await expect(unlessAborted(Promise.resolve('read'), stopping.signal)).resolves.toBe('read');
    await expect(unlessAborted(Promise.reject(new Error('refused')), stopping.signal)).rejects.toThrow('refused');
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });

  it('gives undefined once the signal aborts, while the work never settles', async () => {
    const stopping = new AbortController();
    const waiting = unlessAborted(new Promise<string>(() => undefined), stopping.signal);
    stopping.abort();
    await expect(waiting).resolves.toBeUndefined();
    await expect(unlessAborted(Promise.reject(new Error('late')), stopping.signal)).resolves.toBeUndefined();
  });
});

describe('abortable', () => {
  it("fails with the signal's reason once it aborts, before or during the wait, and leaves no listener on it", async () => {
    const stopping = new AbortController();
    const waiting = abortable(new Promise<string>(() => undefined), stopping.signal);
    stopping.abort(new Error('Redis does not answer'));
    await expect(waiting).rejects.toThrow('Redis does not answer');
    await expect(abortable(Promise.resolve('late'), stopping.signal)).rejects.toThrow('Redis does not answer');
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });
});
