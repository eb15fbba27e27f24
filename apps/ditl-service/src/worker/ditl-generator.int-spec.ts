import { randomUUID } from 'node:crypto';
import { createLogger } from '@spark/logging';
import { openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { onboardingAnswers, useDatabaseAndS3 } from '@spark/testing';
import { ditlEraser } from '../erasure/ditl-erasure';
import { GenerationsRepository } from '../generations/generations.repository';
import { ditlMigrations } from '../migrations';
import { OfflinePlanner } from '../planner/offline-planner';
import type { DitlPlanner } from '../planner/planner';
import { DitlGenerator, GenerationHeldError, presentationPrefix, type PresentationStore } from './ditl-generator';

// The page holds the client's name, goal and challenge; an account erased while it was being written must not keep it.
describe('a Day in the Life written while its account is erased (real PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'ditl', migrations: ditlMigrations }));
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = new ObjectStorage(s3().config);
  });
  afterAll(() => storage?.close());

  /** A stored request; without `evolutionDays`, as one stored before the length was kept. */
  const queued = async (evolutionDays: number | null = null) => {
    const userId = randomUUID();
    const generationId = randomUUID();
    await dataSource().query(`INSERT INTO ditl.generations (id, user_id, email, answers, evolution_days) VALUES ($1, $2, $3, $4, $5)`, [
      generationId,
      userId,
      `${userId}@spark.test`,
      JSON.stringify(onboardingAnswers()),
      evolutionDays,
    ]);
    return { userId, generationId };
  };
  const generatorWith = (planner: DitlPlanner, store: PresentationStore = storage) =>
    new DitlGenerator(
      new GenerationsRepository(dataSource()),
      planner,
      store,
      { attempts: 1, backoffMs: 0, leaseMs: 30_000 },
      createLogger('test', 'silent'),
      () => undefined,
    );
  const generate = async (planner: (userId: string) => DitlPlanner) => {
    const { userId, generationId } = await queued();
    await generatorWith(planner(userId)).run(generationId);
    return s3().keysUnder(presentationPrefix(userId));
  };

  it('keeps the page of a generation that completes', async () => {
    expect(await generate(() => new OfflinePlanner())).toHaveLength(1);
  });

  it('states the evolution length stored with the request, and the default for a request stored before lengths were kept', async () => {
    const closingOf = async (evolutionDays: number | null) => {
      const { generationId } = await queued(evolutionDays);
      await generatorWith(new OfflinePlanner()).run(generationId);
      const [row] = await dataSource().query<{ closing: string }[]>(`SELECT plan->>'closing' AS closing FROM ditl.generations WHERE id = $1`, [generationId]);
      return row?.closing;
    };
    expect(await closingOf(60)).toContain('Repeat it imperfectly for 60 days');
    expect(await closingOf(null)).toContain('Repeat it imperfectly for 90 days');
  });

  it('leaves no page of a generation whose account was erased while it was planned', async () => {
    const eraser = ditlEraser(dataSource(), s3().config);
    const erasingMeanwhile = (userId: string): DitlPlanner => ({
      async plan(given, evolutionDays) {
        await eraser.erase({ userId, email: `${userId}@spark.test` });
        return new OfflinePlanner().plan(given, evolutionDays);
      },
    });
    try {
      expect(await generate(erasingMeanwhile)).toEqual([]);
    } finally {
      await eraser.close?.();
    }
  });

  it('lets the next delivery take over at once a generation whose run gave up, and keeps it from one still running', async () => {
    const { userId, generationId } = await queued();
    const storageDown: PresentationStore = { put: () => Promise.reject(new Error('S3 is unavailable')), delete: () => Promise.resolve() };
    await expect(generatorWith(new OfflinePlanner(), storageDown).run(generationId)).rejects.toThrow('S3 is unavailable');

    await generatorWith(new OfflinePlanner()).run(generationId);
    expect(await s3().keysUnder(presentationPrefix(userId))).toHaveLength(1);

    const running = await queued();
    let releasePlan = () => {};
    let claimed = () => {};
    const planning = new Promise<void>((resolve) => (releasePlan = resolve));
    const firstRunClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const slowPlanner: DitlPlanner = {
      plan: async (given, evolutionDays) => {
        claimed();
        await planning;
        return new OfflinePlanner().plan(given, evolutionDays);
      },
    };
    const firstRun = generatorWith(slowPlanner).run(running.generationId);
    await firstRunClaimed;
    await expect(generatorWith(new OfflinePlanner()).run(running.generationId)).rejects.toBeInstanceOf(GenerationHeldError);
    releasePlan();
    await firstRun;
    await generatorWith(new OfflinePlanner()).run(running.generationId);
    const [row] = await dataSource().query<{ status: string; attempts: number }[]>(`SELECT status, attempts FROM ditl.generations WHERE id = $1`, [
      running.generationId,
    ]);
    expect(row).toEqual({ status: 'completed', attempts: 1 });
  });
});
