import { randomUUID } from 'node:crypto';
import { DomainError } from '@spark/errors';
import { incomingSparkKey, type SparkFile, SparkMedia, type SparkUpload } from '@spark/media';
import { inUnitOfWork, openMigrated } from '@spark/persistence';
import { eraseAccountPart } from '@spark/service-runtime';
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

/** A promise the test settles when it chooses: where one side of a race waits for the other. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

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

  // As the part's queued job runs it, in the same unit of work and with the schema's outbox cleared after.
  const erase = (eraser: ReturnType<typeof progressEraser>, subject: { userId: string; email: string }) =>
    eraseAccountPart({ eraser, outboxSchema: 'progress' }, subject, dataSource());

  /** A client's first onboarding, as its command's unit of work runs it; `beforeCommit` runs once the answers are saved (or refused). */
  const onboard = (userId: string, email: string, beforeCommit: () => Promise<void> = async () => undefined) => {
    const answers = onboardingAnswers();
    const progress = { userId, email, fullName: answers.firstName, transformationGoal: answers.transformationGoal, customEvolutionDays: null, timeZone: 'UTC' };
    return inUnitOfWork(dataSource(), async () => {
      try {
        return await new OnboardingRepository(dataSource()).save({ ...progress, startDate: '2026-12-01', endDate: '2027-03-01' }, (evolutionDays) =>
          toOnboardingRecord(userId, answers, new Date(), evolutionDays),
        );
      } finally {
        await beforeCommit();
      }
    });
  };

  /** The progress rows that name the client, by id or by address, table by table. */
  const everythingAbout = async (userId: string, email: string) =>
    (
      await dataSource().query<{ progress: number; onboarding: number; sparks: number; presets: number }[]>(
        `SELECT (SELECT count(*) FROM progress.user_progress WHERE user_id = $1 OR email = $2)::int AS progress,
                (SELECT count(*) FROM progress.onboarding_data WHERE user_id = $1)::int AS onboarding,
                (SELECT count(*) FROM progress.sparks WHERE user_id = $1)::int AS sparks,
                (SELECT count(*) FROM progress.evolution_presets WHERE email = $2)::int AS presets`,
        [userId, email],
      )
    )[0];
  const nothingAbout = { progress: 0, onboarding: 0, sparks: 0, presets: 0 };

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
    const media = new ErasedWhileClaiming(storage, () => erase(eraser, { userId, email }));
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
    await erase(eraser, { userId, email });
    await expect(onboard(userId, email)).rejects.toEqual(new DomainError('NOT_FOUND', 'This account no longer exists.'));
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
    await erase(eraser, { userId: erased, email: `noted-${erased.slice(0, 8)}@spark.test` });
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

  it('refuses a first onboarding that arrives while the erasure is still under way, and keeps none of it', async () => {
    const userId = randomUUID();
    const email = `racing-${userId.slice(0, 8)}@spark.test`;
    const eraser = progressEraser(dataSource(), s3().config);
    // The erasure is held at its first S3 delete: its first pass over the rows has run, nothing after it has.
    const [inside, resume] = [gate(), gate()];
    const deleteUnder = ObjectStorage.prototype.deleteUnder;
    const held = jest.spyOn(ObjectStorage.prototype, 'deleteUnder').mockImplementationOnce(async function (this: ObjectStorage, ...args) {
      inside.open();
      await resume.opened;
      return deleteUnder.apply(this, args);
    });
    try {
      const erasure = erase(eraser, { userId, email });
      await inside.opened;
      // The onboarding's unit of work commits only after the erasure's has: the latest a racing write can commit.
      const [saved, commit] = [gate(), gate()];
      const onboarding = onboard(userId, email, async () => {
        saved.open();
        await commit.opened;
      });
      await saved.opened;
      resume.open();
      await erasure;
      commit.open();

      const refused = await onboarding.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect({ refused, kept: await everythingAbout(userId, email) }).toEqual({
        refused: new DomainError('NOT_FOUND', 'This account no longer exists.'),
        kept: nothingAbout,
      });
    } finally {
      held.mockRestore();
      await eraser.close?.();
    }
  });

  it('takes a first onboarding that was under way when the erasure began', async () => {
    const userId = randomUUID();
    const email = `racing-${userId.slice(0, 8)}@spark.test`;
    const eraser = progressEraser(dataSource(), s3().config);
    const [saved, commit] = [gate(), gate()];
    const onboarding = onboard(userId, email, async () => {
      saved.open();
      await commit.opened;
    });
    await saved.opened;
    const erasure = erase(eraser, { userId, email });
    // Until the erasure either finishes or waits for the onboarding to commit.
    const waitingForALock = async () => {
      for (;;) {
        const [row] = await dataSource().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_locks
           WHERE NOT granted AND locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
        if (row?.n) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await Promise.race([erasure, waitingForALock()]);
    commit.open();
    await onboarding;
    await erasure;

    expect(await everythingAbout(userId, email)).toEqual(nothingAbout);
    await eraser.close?.();
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
