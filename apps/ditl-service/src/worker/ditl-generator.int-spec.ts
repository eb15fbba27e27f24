import { randomUUID } from 'node:crypto';
import type { OnboardingAnswers } from '@spark/contracts';
import { createLogger } from '@spark/logging';
import { openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { useDatabaseAndS3 } from '@spark/testing';
import { ditlEraser } from '../erasure/ditl-erasure';
import { GenerationsRepository } from '../generations/generations.repository';
import { ditlMigrations } from '../migrations';
import { OfflinePlanner } from '../planner/offline-planner';
import type { DitlPlanner } from '../planner/planner';
import { DitlGenerator, presentationPrefix } from './ditl-generator';

const answers: OnboardingAnswers = {
  firstName: 'Maya',
  transformationGoal: 'Run a half marathon',
  goalTags: [],
  age: 34,
  activityLevel: 'moderately_active',
  typicalDay: 'Up at 6:30, office 9 to 5, dinner at 7, bed by 11.',
  biggestChallenge: 'Evenings slip away',
};

// The page holds the client's name, goal and challenge; an account erased while it was being written must not keep it.
describe('a Day in the Life written while its account is erased (real PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'ditl', migrations: ditlMigrations }));
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = new ObjectStorage(s3().config);
  });
  afterAll(() => storage?.close());

  const generate = async (planner: (userId: string) => DitlPlanner) => {
    const userId = randomUUID();
    const generationId = randomUUID();
    await dataSource().query(`INSERT INTO ditl.generations (id, user_id, email, answers) VALUES ($1, $2, $3, $4)`, [
      generationId,
      userId,
      `${userId}@spark.test`,
      JSON.stringify(answers),
    ]);
    const generator = new DitlGenerator(
      new GenerationsRepository(dataSource()),
      planner(userId),
      storage,
      { attempts: 1, backoffMs: 0, leaseMs: 30_000 },
      createLogger('test', 'silent'),
      () => undefined,
    );
    await generator.run(generationId);
    return s3().keysUnder(presentationPrefix(userId));
  };

  it('keeps the page of a generation that completes', async () => {
    expect(await generate(() => new OfflinePlanner())).toHaveLength(1);
  });

  it('leaves no page of a generation whose account was erased while it was planned', async () => {
    const eraser = ditlEraser(dataSource(), s3().config);
    const erasingMeanwhile = (userId: string): DitlPlanner => ({
      async plan(given) {
        await eraser.erase({ userId, email: `${userId}@spark.test` });
        return new OfflinePlanner().plan(given);
      },
    });
    try {
      expect(await generate(erasingMeanwhile)).toEqual([]);
    } finally {
      await eraser.close?.();
    }
  });
});
