import { CoalescedRead } from './coach-coalesced-read';

const deferred = () => {
  let resolve: (value: number) => void = () => {};
  const promise = new Promise<number>((done) => (resolve = done));
  return { promise, resolve };
};

describe('CoalescedRead', () => {
  it('runs one read for callers that arrive while another is in flight, after that one ends', async () => {
    const runs = [deferred(), deferred()];
    let started = 0;
    const read = new CoalescedRead(() => runs[started++]!.promise);
    const first = read.get();
    const late = [read.get(), read.get(), read.get()];
    expect(started).toBe(1);
    runs[0]!.resolve(1);
    await expect(first).resolves.toBe(1);
    await Promise.resolve();
    expect(started).toBe(2);
    runs[1]!.resolve(2);
    await expect(Promise.all(late)).resolves.toEqual([2, 2, 2]);
  });

  it('starts afresh after a failed read', async () => {
    let calls = 0;
    const read = new CoalescedRead(async () => {
      calls++;
      if (calls === 1) throw new Error('database gone');
      return calls;
    });
    await expect(read.get()).rejects.toThrow('database gone');
    await expect(read.get()).resolves.toBe(2);
  });
});
