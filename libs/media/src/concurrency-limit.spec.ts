import { ConcurrencyLimit } from './concurrency-limit';

describe('ConcurrencyLimit', () => {
  it('never runs more than its limit at once and runs every task, also after one fails', async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const task = (fail: boolean) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (fail) throw new Error('failed');
      return 'done';
    };
    const results = await Promise.allSettled([false, true, false, false, false].map((fail) => limit.run(task(fail))));
    expect(most).toBe(2);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  });
});
