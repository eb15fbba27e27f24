import { BatchedDeletes, MAX_KEYS_PER_DELETE } from './batched-deletes';

const keys = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}/${index}`);

describe('BatchedDeletes', () => {
  let sent: { bucket: string; keys: string[] }[];
  let deletes: BatchedDeletes;

  beforeEach(() => {
    sent = [];
    deletes = new BatchedDeletes(async (bucket, batch) => {
      sent.push({ bucket, keys: batch });
    }, 50);
  });

  it('sends the keys queued within the window together, once it has passed', () => {
    jest.useFakeTimers();
    try {
      deletes.add('sparks', 'a');
      deletes.add('sparks', 'b');
      deletes.add('log', 'c');
      jest.advanceTimersByTime(49);
      expect(sent).toEqual([]);
      jest.advanceTimersByTime(1);
    } finally {
      jest.useRealTimers();
    }
    expect(sent).toEqual([
      { bucket: 'sparks', keys: ['a', 'b'] },
      { bucket: 'log', keys: ['c'] },
    ]);
  });

  it('sends at once when a bucket reaches the limit of one request, and never more keys than that in one', async () => {
    for (const key of keys(MAX_KEYS_PER_DELETE, 'full')) deletes.add('sparks', key);
    await Promise.resolve();
    expect(sent.map((batch) => batch.keys.length)).toEqual([MAX_KEYS_PER_DELETE]);
    for (const key of keys(MAX_KEYS_PER_DELETE - 1, 'more')) deletes.add('sparks', key);
    await deletes.flush();
    expect(sent.map((batch) => batch.keys.length)).toEqual([MAX_KEYS_PER_DELETE, MAX_KEYS_PER_DELETE - 1]);
  });

  it('waits in flush for the requests on their way, and reports a failed one instead of failing the flush', async () => {
    let finish = () => {};
    const failures: unknown[] = [];
    const failing = new BatchedDeletes(
      (_bucket, batch) =>
        new Promise<void>((_resolve, reject) => {
          finish = () => reject(new Error(`refused ${batch.join()}`));
        }),
      50,
      (error, batch) => failures.push({ message: (error as Error).message, ...batch }),
    );
    failing.add('sparks', 'a');
    let flushed = false;
    const flushing = failing.flush().then(() => (flushed = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(flushed).toBe(false);
    finish();
    await flushing;
    expect(flushed).toBe(true);
    expect(failures).toEqual([{ message: 'refused a', bucket: 'sparks', keys: 1 }]);
  });
});
