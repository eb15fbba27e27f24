import { ConcurrencyLimit } from './concurrency-limit';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const MB = 1024 * 1024;
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

  it.each([
    // A's second took the room left while no one else waited: it is the photo of A's that B waits behind.
    ['one after the other', ['A 1', 'A 2', 'A 3', 'C 1', 'C 2', 'C 3'], ['A 1', 'A 2', 'C 1', 'B 1']],
    ['at the same time', ['A 1', 'C 1', 'A 2', 'C 2', 'A 3', 'C 3'], ['A 1', 'C 1', 'B 1']],
  ])(
    'takes turns at each stage of a claim, so a small photo waits behind the re-encode running and at most one large photo of each other client (clients sending %s)',
    async (_, larges, reencodedUpToB) => {
      // SparkMedia's stages: claims in flight, bytes held in memory (a photo weighing at most the image limit), re-encodes.
      const [claims, held, reencodes] = [new ConcurrencyLimit(8), new ConcurrencyLimit(30 * MB), new ConcurrencyLimit(1)];
      const reencoded: string[] = [];
      let reencoding = () => {};
      const firstReencode = new Promise<void>((resolve) => (reencoding = resolve));
      const claim = (name: string, bytes: number) => {
        const owner = name.charAt(0);
        const reencode = () =>
          reencodes.run(
            async () => {
              reencoded.push(name);
              reencoding();
              for (let tick = 0; tick < 5; tick++) await nextTurn();
            },
            1,
            owner,
          );
        return claims.run(() => held.run(reencode, Math.min(bytes, 15 * MB), owner), 1, owner);
      };
      const claimed = larges.map((name) => claim(name, 15 * MB));
      await firstReencode;
      await Promise.all([...claimed, claim('B 1', 200_000)]);
      expect(reencoded.slice(0, reencoded.indexOf('B 1') + 1)).toEqual(reencodedUpToB);
    },
  );

  it('starts a heavy task waiting for room once each other owner had its turn, however they keep sending light ones', async () => {
    const limit = new ConcurrencyLimit(10);
    const started: string[] = [];
    const task = (name: string, weight: number) =>
      limit.run(
        async () => {
          started.push(name);
          await nextTurn();
        },
        weight,
        name.charAt(0),
      );
    const oneAfterAnother = async (owner: string) => {
      for (const name of [1, 2, 3, 4]) await task(`${owner} ${name}`, 4);
    };
    await Promise.all([task('X 1', 4), task('X heavy', 10), ...['A', 'B', 'C', 'D'].map(oneAfterAnother)]);
    expect(started.slice(0, started.indexOf('X heavy') + 1)).toEqual(['X 1', 'A 1', 'B 1', 'C 1', 'D 1', 'X heavy']);
  });

  it('forgets owners whose tasks ended once nothing waits, so clients seen once do not pile up', async () => {
    const limit = new ConcurrencyLimit(1);
    const owners = () => limit['owners'].size;
    for (let client = 0; client < 10_000; client++) await limit.run(nextTurn, 1, `client ${client}`);
    const afterOneTaskEach = owners();
    await Promise.all(['A', 'A', 'B', 'A', 'C'].map((owner) => limit.run(nextTurn, 1, owner)));
    expect({ afterOneTaskEach, afterABurst: owners() }).toEqual({ afterOneTaskEach: 0, afterABurst: 0 });
  });
});
