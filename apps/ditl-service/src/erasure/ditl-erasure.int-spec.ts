import { randomUUID } from 'node:crypto';
import { developmentSigningKeys } from '@spark/config';
import { DEFAULT_EVOLUTION_DAYS } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { openMigrated } from '@spark/persistence';
import { eventually, lockWaiters, onboardingAnswers, useDatabaseAndS3 } from '@spark/testing';
import { momentKeys } from '../generations/coach-edits';
import { GenerationsRepository } from '../generations/generations.repository';
import { GenerationsService } from '../generations/generations.service';
import { ditlMigrations } from '../migrations';
import { OfflinePlanner } from '../planner/offline-planner';
import { ditlEraser, forgetOldErasures } from './ditl-erasure';

// A request for a Day in the Life already past the gateway when its client's deletion commits is recorded after the
// erasure ran: it must not bring back the answers and the address, nor send the "ready" e-mail.
describe('a Day in the Life asked for around its client’s erasure (real PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'ditl', migrations: ditlMigrations }));
  const service = () =>
    new GenerationsService(
      new GenerationsRepository(dataSource()),
      { kick: () => undefined },
      { getText: () => Promise.resolve('') },
      5,
      developmentSigningKeys(),
    );
  /** Resolves once another connection waits for a lock in a statement holding `statement`. */
  const lockWaitIn = (statement: string) => eventually(async () => (await lockWaiters(dataSource(), statement)) > 0, 10_000, `a wait in ${statement}`);
  const generationsOf = async (userId: string) =>
    (await dataSource().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ditl.generations WHERE user_id = $1`, [userId]))[0]?.n;

  it('records no generation for a client erased before the request arrived, and still records one for anyone else', async () => {
    const [erased, other] = [randomUUID(), randomUUID()];
    const eraser = ditlEraser(dataSource(), s3().config);
    await eraser.erase({ userId: erased, email: 'noor@spark.test' });
    await eraser.close?.();

    await expect(
      service().generate({ userId: erased, email: 'noor@spark.test', answers: onboardingAnswers(), requested: null, evolutionDays: DEFAULT_EVOLUTION_DAYS }),
    ).rejects.toEqual(new DomainError('NOT_FOUND', 'This account no longer exists.'));
    await service().generate({
      userId: other,
      email: 'other@spark.test',
      answers: onboardingAnswers(),
      requested: null,
      evolutionDays: DEFAULT_EVOLUTION_DAYS,
    });
    expect([await generationsOf(erased), await generationsOf(other)]).toEqual([0, 1]);
  });

  it("keeps no coach's edit saved while the client's erasure ran", async () => {
    const userId = randomUUID();
    const email = `${userId}@spark.test`;
    const { plan } = await new OfflinePlanner().plan(onboardingAnswers(), DEFAULT_EVOLUTION_DAYS);
    await dataSource().query(`INSERT INTO ditl.generations (id, user_id, email, answers, status, plan) VALUES ($1, $2, $3, $4, 'completed', $5)`, [
      randomUUID(),
      userId,
      email,
      JSON.stringify(onboardingAnswers()),
      JSON.stringify(plan),
    ]);
    const moment = momentKeys(plan)[0];
    // Another writer of the same moment holds the edit back after it has read the plan, until the erasure had its chance.
    const otherWriter = dataSource().createQueryRunner();
    await otherWriter.startTransaction();
    await otherWriter.query(`INSERT INTO ditl.coach_edits (user_id, moment, narrative, habit, coach_id) VALUES ($1, $2, 'x', 'x', $3)`, [
      userId,
      moment,
      randomUUID(),
    ]);
    const editing = service().editMoment({
      userId,
      moment,
      coachId: randomUUID(),
      edit: { narrative: 'You open the window at 6:30.', habit: 'Fresh air first' },
    });
    await lockWaitIn('INSERT INTO ditl.coach_edits');
    const eraser = ditlEraser(dataSource(), s3().config);
    const erasing = eraser.erase({ userId, email });
    await Promise.race([erasing, lockWaitIn('pg_advisory_xact_lock')]);
    await otherWriter.rollbackTransaction();
    await otherWriter.release();
    await Promise.allSettled([editing, erasing]);
    await eraser.close?.();

    const edits = await dataSource().query(`SELECT moment FROM ditl.coach_edits WHERE user_id = $1`, [userId]);
    expect(edits).toEqual([]);
  });

  it('forgets an erasure after a day', async () => {
    const [recent, old] = [randomUUID(), randomUUID()];
    await dataSource().query(`INSERT INTO ditl.erased_users (user_id, erased_at) VALUES ($1, now() - interval '23 hours'), ($2, now() - interval '25 hours')`, [
      recent,
      old,
    ]);
    await forgetOldErasures(dataSource());
    const kept = await dataSource().query<{ user_id: string }[]>(`SELECT user_id FROM ditl.erased_users WHERE user_id IN ($1, $2)`, [recent, old]);
    expect(kept).toEqual([{ user_id: recent }]);
  });
});
