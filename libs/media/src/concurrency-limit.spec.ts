import { ConcurrencyLimit } from './concurrency-limit';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** Runs a task of `owner` that notes its name when it starts. */
const ownersTask = (limit: ConcurrencyLimit, started: string[]) => (name: string, owner: string) =>
  limit.run(
    async () => {
      started.push(name);
      await nextTurn();
    },
    1,
    owner,
  );

describe('ConcurrencyLimit', () => {
  it('never runs more than its limit at once and runs every task, also after one fails', async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const task = (fail: boolean) => async () => {
      running++;
      most = Math.max(most, running);
      await nextTurn();
      running--;
      if (fail) throw new Error('failed');
      return 'done';
    };
    const results = await Promise.allSettled([false, true, false, false, false].map((fail) => limit.run(task(fail))));
    expect(most).toBe(2);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  });

  it('runs light tasks together, a heavy one alone, and keeps their order', async () => {
    const limit = new ConcurrencyLimit(10);
    const events: string[] = [];
    const task = (name: string, weight: number) =>
      limit.run(async () => {
        events.push(`${name} starts`);
        await nextTurn();
        events.push(`${name} ends`);
      }, weight);
    await Promise.all([task('small 1', 2), task('small 2', 2), task('large', 9), task('small 3', 2), task('huge', 50), task('small 4', 1)]);
    expect(events).toEqual([
      'small 1 starts',
      'small 2 starts',
      'small 1 ends',
      'small 2 ends',
      'large starts',
      'large ends',
      'small 3 starts',
      'small 3 ends',
      'huge starts',
      'huge ends',
      'small 4 starts',
      'small 4 ends',
    ]);
  });

  it("shares its slot in turn between owners: one owner's backlog waits behind another owner's later task", async () => {
    const started: string[] = [];
    const task = ownersTask(new ConcurrencyLimit(1), started);
    const script = [task('A 1', 'A'), task('A 2', 'A'), task('A 3', 'A')];
    await Promise.all([...script, task('B 1', 'B'), task('C 1', 'C'), task('B 2', 'B')]);
    expect(started).toEqual(['A 1', 'B 1', 'C 1', 'A 2', 'B 2', 'A 3']);
  });

  it("remembers an owner's turn after its task ends, so owners sending one task after another cannot hold back a waiting one", async () => {
    const started: string[] = [];
    const task = ownersTask(new ConcurrencyLimit(1), started);
    const oneAfterAnother = async (owner: string) => {
      for (const name of [1, 2, 3]) await task(`${owner} ${name}`, owner);
    };
    await Promise.all([task('A 1', 'A'), task('A 2', 'A'), oneAfterAnother('B'), oneAfterAnother('C')]);
    expect(started).toEqual(['A 1', 'B 1', 'C 1', 'A 2', 'B 2', 'C 2', 'B 3', 'C 3']);
  });
});
