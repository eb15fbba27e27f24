import { randomUUID } from 'node:crypto';
import { DomainError } from '@spark/errors';
import { incomingSparkKey, type SparkFile, SparkMedia, type SparkUpload } from '@spark/media';
import { openMigrated } from '@spark/persistence';
import { ObjectStorage } from '@spark/storage';
import { insertProgress, onboardingAnswers, TINY_PNG, useDatabaseAndS3 } from '@spark/testing';
import { progressMigrations } from '../migrations';
import { NotesRepository } from '../notes/notes.repository';
import { toOnboardingRecord } from '../onboarding/onboarding-record';
import { OnboardingRepository } from '../onboarding/onboarding.repository';
import { DatabaseTimeZones } from '../progress/database-time-zones';
import { SparksRepository } from '../sparks/sparks.repository';
import { SparksService } from '../sparks/sparks.service';
import { forgetOldErasures, progressEraser } from './progress-erasure';

/** The real media, but the erasure runs while a claim is under way: after it read and stored the file, before the spark is recorded. */
class ErasedWhileClaiming extends SparkMedia {
  constructor(
    storage: ObjectStorage,
    private readonly erase: () => Promise<void>,
  ) {
    super(storage);
  }

  override async claimUpload(userId: string, upload: SparkUpload): Promise<SparkFile> {
    const file = await super.claimUpload(userId, upload);
    await this.erase();
    return file;
  }
}

// A capture takes seconds from its upload's claim to its record, and the deletion's erase job may run meanwhile:
// the client's access token is refused from then on, but a request already past the gateway goes on.
describe('erasing a client while one of their captures is being recorded (real PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'progress', migrations: progressMigrations }));
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = new ObjectStorage(s3().config);
  });
  afterAll(() => storage?.close());

  const rowsAbout = async (userId: string) =>
    (
      await dataSource().query<{ n: number }[]>(
        `SELECT (SELECT count(*) FROM progress.user_progress WHERE user_id = $1)::int + (SELECT count(*) FROM progress.sparks WHERE user_id = $1)::int AS n`,
        [userId],
      )
    )[0]?.n;

  it('records nothing and keeps no file of a client erased before their capture was recorded', async () => {
    const userId = randomUUID();
    const email = `erased-${userId.slice(0, 8)}@spark.test`;
    const eraser = progressEraser(dataSource(), s3().config);
    const media = new ErasedWhileClaiming(storage, () => eraser.erase({ userId, email }));
    const service = new SparksService(new SparksRepository(dataSource()), media, new DatabaseTimeZones(dataSource()), 1_000_000);
    const upload = { clientSparkId: randomUUID(), uploadId: randomUUID() };
    await storage.put({ key: incomingSparkKey(userId, upload), body: TINY_PNG, contentType: 'image/png' });

    await expect(service.record({ ...upload, userId, email, timeZone: 'UTC', note: null })).rejects.toEqual(
      new DomainError('NOT_FOUND', 'This account no longer exists.'),
    );
    expect(await rowsAbout(userId)).toBe(0);
    expect(await s3().keysUnder(`${userId}/`)).toEqual([]);
    await eraser.close?.();
  });

  it('keeps an onboarding that arrives after the erasure from starting the client again', async () => {
    const userId = randomUUID();
    const email = `onboarding-${userId.slice(0, 8)}@spark.test`;
    const eraser = progressEraser(dataSource(), s3().config);
    await eraser.erase({ userId, email });
    const answers = onboardingAnswers();
    const progress = { userId, email, fullName: answers.firstName, transformationGoal: answers.transformationGoal, customEvolutionDays: null, timeZone: 'UTC' };
    await expect(
      new OnboardingRepository(dataSource()).save(toOnboardingRecord(userId, answers, new Date()), {
        ...progress,
        startDate: '2026-12-01',
        endDate: '2027-03-01',
      }),
    ).rejects.toEqual(new DomainError('NOT_FOUND', 'This account no longer exists.'));
    const [kept] = await dataSource().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM progress.onboarding_data WHERE user_id = $1`, [userId]);
    expect([await rowsAbout(userId), kept?.n]).toEqual([0, 0]);
    await eraser.close?.();
  });

  it("takes no coach's note for a client erased, or never known, and one for a client who is", async () => {
    const notes = new NotesRepository(dataSource());
    const coachId = randomUUID();
    const noteTo = (userId: string) =>
      Promise.allSettled([
        notes.addCoachNote({ userId, coachId, message: 'Great week, Noor: keep the evening walk.', isPinned: false }),
        notes.addPrivateNote({ userId, coachId, note: 'Noor sleeps badly after night shifts.' }),
      ]);
    const notesAbout = async (userId: string) =>
      (
        await dataSource().query<{ n: number }[]>(
          `SELECT (SELECT count(*) FROM progress.coach_notes WHERE user_id = $1)::int + (SELECT count(*) FROM progress.coach_private_notes WHERE user_id = $1)::int AS n`,
          [userId],
        )
      )[0]?.n;
    const erased = randomUUID();
    const eraser = progressEraser(dataSource(), s3().config);
    await eraser.erase({ userId: erased, email: `noted-${erased.slice(0, 8)}@spark.test` });
    await eraser.close?.();
    const clientNotFound = { status: 'rejected', reason: new DomainError('NOT_FOUND', 'Client not found.') };

    for (const userId of [erased, randomUUID()]) {
      expect(await noteTo(userId)).toEqual([clientNotFound, clientNotFound]);
      expect(await notesAbout(userId)).toBe(0);
    }
    const client = randomUUID();
    await insertProgress(dataSource(), { userId: client, email: `noted-${client.slice(0, 8)}@spark.test` });
    expect((await noteTo(client)).map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await notesAbout(client)).toBe(2);
  });

  it('forgets an erasure after a day', async () => {
    const [recent, old] = [randomUUID(), randomUUID()];
    await dataSource().query(
      `INSERT INTO progress.erased_users (user_id, erased_at) VALUES ($1, now() - interval '23 hours'), ($2, now() - interval '25 hours')`,
      [recent, old],
    );
    await forgetOldErasures(dataSource());
    const kept = await dataSource().query<{ user_id: string }[]>(`SELECT user_id FROM progress.erased_users WHERE user_id IN ($1, $2)`, [recent, old]);
    expect(kept).toEqual([{ user_id: recent }]);
  });
});
