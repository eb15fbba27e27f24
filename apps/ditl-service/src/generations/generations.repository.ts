import type { DitlPlan, DitlPlannerName, DitlStatus, MailApproval, OnboardingAnswers } from '@spark/contracts';
import { type JobRequest, outboxInsertSql, outboxRows } from '@spark/jobs';
import { erasedUsers } from '@spark/service-runtime';
import type { EntityManager } from 'typeorm';
import type { CoachEdit } from './coach-edits';

export interface GenerationRow {
  id: string;
  user_id: string;
  email: string;
  answers: OnboardingAnswers;
  /** The gateway's statement that the client asked for it; null for generations asked for before the gateway made them. */
  requested: MailApproval | null;
  /** The length of the client's evolution when it was asked for; null for generations asked for before it was kept. */
  evolution_days: number | null;
  status: DitlStatus;
  progress: number;
  planner: DitlPlannerName | null;
  presentation_key: string | null;
  /** Null for the generations finished before plans were kept (their page is in S3 only). */
  plan: DitlPlan | null;
  error: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export interface NewGeneration {
  id: string;
  userId: string;
  email: string;
  leadId: string | null;
  answers: OnboardingAnswers;
  requested: MailApproval | null;
  evolutionDays: number;
  /** The id the client's device chose for the request; null for a coach's regeneration and older pages. */
  requestId: string | null;
}

const columns = `id, user_id, email, answers, requested, evolution_days, status, progress, planner, presentation_key, plan, error, attempts, created_at, updated_at, completed_at`;

/** A DataSource, or the EntityManager of a transaction. */
type Database = Pick<EntityManager, 'query'> & { transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> };

/** The clients this schema erased in the last day. */
export const ditlErasures = erasedUsers('ditl');

/** Every SQL statement on ditl.generations; the worker's writes are guarded by the current status. */
export class GenerationsRepository {
  constructor(private readonly dataSource: Database) {}

  /**
   * Runs `work` in one transaction holding a lock on the user's generations, so one user's concurrent
   * requests take turns: a double submit reuses the first, and the daily budget cannot be overrun.
   */
  forUser<T>(userId: string, work: (generations: GenerationsRepository) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('ditl.generations'), hashtext($1))`, [userId]);
      return work(new GenerationsRepository(manager));
    });
  }

  /** Whether the user was erased in the last day: a request under way then must record nothing (`ditlErasures`). */
  async erased(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 WHERE NOT ${ditlErasures.notErasedSql}`, [userId]);
    return rows.length > 0;
  }

  /** Every generation and coach's edit of the user, who is noted as erased. Call it within `forUser`. */
  async eraseAll(userId: string): Promise<void> {
    await this.dataSource.query(
      `WITH erased AS (${ditlErasures.markErasedSql}), edits AS (DELETE FROM ditl.coach_edits WHERE user_id = $1)
       DELETE FROM ditl.generations WHERE user_id = $1`,
      [userId],
    );
  }

  /** How many generations the user asked for within the last `hours`, and when the oldest of them leaves that window. */
  async createdWithin(userId: string, hours: number): Promise<{ count: number; secondsUntilOneLeaves: number }> {
    const rows: { count: number; seconds: number | null }[] = await this.dataSource.query(
      `SELECT count(*)::int AS count, ceil(extract(epoch FROM min(created_at) + make_interval(hours => $2) - now()))::int AS seconds
       FROM ditl.generations WHERE user_id = $1 AND created_at > now() - make_interval(hours => $2)`,
      [userId, hours],
    );
    return { count: rows[0]?.count ?? 0, secondsUntilOneLeaves: rows[0]?.seconds ?? 0 };
  }

  /** The request and its job's outbox row in ONE statement, so a stored request always gets its job. */
  async insertWithJob(generation: NewGeneration, job: JobRequest): Promise<void> {
    await this.dataSource.query(
      `WITH generation AS (
         INSERT INTO ditl.generations (id, user_id, email, lead_id, answers, requested, evolution_days, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
       ), jobs AS (
         ${outboxInsertSql('ditl', 9)} WHERE EXISTS (SELECT 1 FROM generation)
       )
       SELECT id FROM generation`,
      [
        generation.id,
        generation.userId,
        generation.email,
        generation.leadId,
        JSON.stringify(generation.answers),
        generation.requested && JSON.stringify(generation.requested),
        generation.evolutionDays,
        generation.requestId,
        ...outboxRows([job]),
      ],
    );
  }

  /** The generation the user's device asked for with `requestId`, whatever became of it. */
  async findByRequest(userId: string, requestId: string): Promise<string | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM ditl.generations WHERE user_id = $1 AND request_id = $2`, [userId, requestId]);
    return rows[0]?.id;
  }

  /**
   * Notes that the request `requestId` was answered with generation `id`, unless it answers another request already:
   * a try of it sent again finds it then, even once it is finished.
   */
  async answersRequest(id: string, requestId: string): Promise<void> {
    await this.dataSource.query(`UPDATE ditl.generations SET request_id = $2 WHERE id = $1 AND request_id IS NULL`, [id, requestId]);
  }

  /** The user's unfinished generation, if any (there is at most one). */
  async findUnfinished(userId: string): Promise<string | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM ditl.generations WHERE user_id = $1 AND status IN ('queued', 'generating')`, [
      userId,
    ]);
    return rows[0]?.id;
  }

  /**
   * Fails the unfinished generations asked for more than `seconds` ago (of one user, or all): their page gave up
   * waiting, and a worker that still finishes one changes nothing (its completion requires `generating`).
   */
  async failStale(seconds: number, userId?: string): Promise<string[]> {
    const rows: [{ id: string }[], number] = await this.dataSource.query(
      `UPDATE ditl.generations SET status = 'failed', error = $3, updated_at = now()
       WHERE status IN ('queued', 'generating') AND created_at < now() - make_interval(secs => $1) AND ($2::uuid IS NULL OR user_id = $2)
       RETURNING id`,
      [seconds, userId ?? null, `Not finished within ${seconds} s`],
    );
    return rows[0].map((row) => row.id);
  }

  /** The user's newest generation, or its newest finished one: what the client and the coach read. */
  async newest(userId: string, only?: 'completed'): Promise<GenerationRow | undefined> {
    const rows: GenerationRow[] = await this.dataSource.query(
      `SELECT ${columns} FROM ditl.generations WHERE user_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY created_at DESC LIMIT 1`,
      [userId, only ?? null],
    );
    return rows[0];
  }

  /**
   * The user's newest finished generation older than `before` (the newest when none), and the id of the one after it:
   * an export walks them one at a time rather than holding every plan.
   */
  async completedBefore(userId: string, before?: string): Promise<{ row: GenerationRow | undefined; next: string | null }> {
    const rows: GenerationRow[] = await this.dataSource.query(
      `SELECT ${columns} FROM ditl.generations
        WHERE user_id = $1 AND status = 'completed'
          AND ($2::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM ditl.generations WHERE id = $2 AND user_id = $1))
        ORDER BY created_at DESC, id DESC LIMIT 2`,
      [userId, before ?? null],
    );
    return { row: rows[0], next: rows[1]?.id ?? null };
  }

  async coachEdits(userId: string): Promise<CoachEdit[]> {
    return this.dataSource.query(`SELECT moment, narrative, habit, updated_at AS "updatedAt" FROM ditl.coach_edits WHERE user_id = $1`, [userId]);
  }

  async saveCoachEdit(userId: string, coachId: string, edit: Omit<CoachEdit, 'updatedAt'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO ditl.coach_edits (user_id, moment, narrative, habit, coach_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, moment) DO UPDATE SET narrative = EXCLUDED.narrative, habit = EXCLUDED.habit, coach_id = EXCLUDED.coach_id, updated_at = now()`,
      [userId, edit.moment, edit.narrative, edit.habit, coachId],
    );
  }

  async deleteCoachEdit(userId: string, moment: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM ditl.coach_edits WHERE user_id = $1 AND moment = $2`, [userId, moment]);
  }

  async find(id: string): Promise<GenerationRow | undefined> {
    const rows: GenerationRow[] = await this.dataSource.query(`SELECT ${columns} FROM ditl.generations WHERE id = $1`, [id]);
    return rows[0];
  }

  /** Whether the generation is still there (an account erasure deletes them). */
  async exists(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ditl.generations WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /**
   * Starts a queued generation, or restarts one no live run holds (its run died, or gave up on it: `claimed_until`
   * passed or cleared), holding it for `leaseMs`, which the run renews (`renewClaim`). 'held' while a live run has it
   * (Redis lost its job, and the outbox added it again); 'finished' when it is done, failed or erased.
   */
  async claim(id: string, leaseMs: number): Promise<GenerationRow | 'held' | 'finished'> {
    const rows: [GenerationRow[], number] = await this.dataSource.query(
      `UPDATE ditl.generations
       SET status = 'generating', progress = 10, attempts = attempts + 1, updated_at = now(), claimed_until = now() + make_interval(secs => $2)
       WHERE id = $1 AND (status = 'queued' OR (status = 'generating' AND (claimed_until IS NULL OR claimed_until < now())))
       RETURNING ${columns}`,
      [id, leaseMs / 1000],
    );
    const claimed = rows[0][0];
    if (claimed) return claimed;
    return (await this.find(id))?.status === 'generating' ? 'held' : 'finished';
  }

  /** Keeps a running generation's claim for another `leaseMs`: see `claim`. */
  async renewClaim(id: string, leaseMs: number): Promise<void> {
    await this.dataSource.query(`UPDATE ditl.generations SET claimed_until = now() + make_interval(secs => $2) WHERE id = $1 AND status = 'generating'`, [
      id,
      leaseMs / 1000,
    ]);
  }

  /** Gives up a run's claim on a generation it did not finish, so the job's next delivery takes it at once. */
  async releaseClaim(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE ditl.generations SET claimed_until = NULL WHERE id = $1 AND status = 'generating'`, [id]);
  }

  async reportProgress(id: string, progress: number): Promise<void> {
    await this.dataSource.query(`UPDATE ditl.generations SET progress = GREATEST(progress, $2), updated_at = now() WHERE id = $1 AND status = 'generating'`, [
      id,
      progress,
    ]);
  }

  /**
   * Completes the generation and queues its e-mail, when it has one to send, in ONE statement. Only the first
   * completion matches `status = 'generating'`, so a recovered duplicate run changes nothing and sends nothing.
   * Returns whether this call was the one that completed it.
   */
  async complete(id: string, planned: { planner: DitlPlannerName; plan: DitlPlan }, presentationKey: string, mail?: JobRequest): Promise<boolean> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH done AS (
         UPDATE ditl.generations SET status = 'completed', progress = 100, planner = $2, presentation_key = $3, plan = $4,
           error = NULL, completed_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'generating' RETURNING id
       ), jobs AS (
         ${outboxInsertSql('ditl', 5)} WHERE EXISTS (SELECT 1 FROM done)
       )
       SELECT id FROM done`,
      [id, planned.planner, presentationKey, JSON.stringify(planned.plan), ...outboxRows(mail ? [mail] : [])],
    );
    return rows.length === 1;
  }

  async fail(id: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE ditl.generations SET status = 'failed', error = left($2, 2000), updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'generating')`,
      [id, error],
    );
  }
}
