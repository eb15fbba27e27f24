import { type AccountDeletion, type DeletionPart, type DeletionSubject, deletionParts, deletionQueues, type ErasedPart, type UserRole } from '@spark/contracts';
import { deleteOutboxRowsAboutSql, type JobRequest, outboxInsertSql, outboxRequeueSql, outboxRows } from '@spark/jobs';
import { decodeCursor, type Keyed, pageOf, positionOfRow } from '@spark/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { ERASED_LABEL, type ErasedAccountSql, erasedActorSql, erasedTargetSql } from '../audit/audit-erasure';
import { LIVE_ACCESS_WINDOW_SECONDS } from '../sessions/session-revocations';

export type Confirmation =
  | { outcome: 'erased'; deletionId: string; userId: string; liveFamilies: string[] }
  | { outcome: 'erased-before'; deletionId: string; userId: string }
  | { outcome: 'invalid' }
  | { outcome: 'not-a-client' };

interface DeletionRow {
  id: string;
  requested_at: Date;
  completed_at: Date | null;
  parts: { part: DeletionPart; done_at: string | null }[];
}

// The audit update's parameters: the account's id and address, then its deletion's id and label.
const erasedByParameters: ErasedAccountSql = { userId: '$1::uuid', email: '$2', deletionId: '$3::uuid', label: '$4' };
const entryActor = erasedActorSql({ id: 'actor_id', email: 'actor_email' }, erasedByParameters);
const entryTarget = erasedTargetSql({ id: 'target_id', label: 'target_label' }, erasedByParameters);

/** Replaces an unfinished deletion's subject in every audit entry by or about them, as the log's trigger allows. */
async function anonymiseAuditEntries(manager: EntityManager, subject: DeletionSubject, deletionId: string): Promise<void> {
  await manager.query(`SELECT set_config('spark.erasing_account', 'on', true)`);
  await manager.query(
    `UPDATE auth.audit_events
     SET actor_id = ${entryActor.id}, actor_email = ${entryActor.email}, target_id = ${entryTarget.id}, target_label = ${entryTarget.label}
     WHERE ${entryActor.matches} OR ${entryTarget.matches}`,
    [subject.userId, subject.email, deletionId, ERASED_LABEL],
  );
  await manager.query(`SELECT set_config('spark.erasing_account', 'off', true)`);
}

const erasedParts = Object.keys(deletionQueues) as ErasedPart[];

/** The job that erases one part of a deletion, in the part's own queue; it names the deletion and no one. */
const eraseJob = (deletionId: string, part: ErasedPart) => ({ queue: deletionQueues[part], name: 'erase-account', data: { deletionId } }) as JobRequest;

/**
 * The auth part of a deletion, in the caller's transaction: the deletion record naming the subject, and the
 * confirmation it spent if any, and its parts, the audit log's mentions replaced, the user and what goes with them,
 * their jobs, and one erase job per other part. Answers the families of the user's sessions whose access tokens may
 * still be valid.
 */
async function eraseAccount(manager: EntityManager, deletionId: string, subject: DeletionSubject, tokenHash: Buffer | null): Promise<string[]> {
  await manager.query(`INSERT INTO auth.account_deletions (id, user_id, email, confirmation_token_hash) VALUES ($1, $2, $3, $4)`, [
    deletionId,
    subject.userId,
    subject.email,
    tokenHash,
  ]);
  // Each part keeps its job's id (its outbox row's) for good: queued again under it, a job still in Redis is not doubled.
  const eraseJobs = outboxRows(erasedParts.map((part) => eraseJob(deletionId, part)));
  await manager.query(
    `INSERT INTO auth.account_deletion_parts (deletion_id, part, done_at, job_id)
     SELECT $1::uuid, part, CASE WHEN part = 'auth' THEN now() END, job.id
     FROM unnest($2::text[]) AS each_part(part) LEFT JOIN unnest($3::text[], $4::uuid[]) AS job(part, id) USING (part)`,
    [deletionId, deletionParts, erasedParts, eraseJobs[0]],
  );
  await anonymiseAuditEntries(manager, subject, deletionId);
  const [{ live_families: liveFamilies }] = (await manager.query(
    `SELECT ARRAY(SELECT DISTINCT family_id FROM auth.refresh_tokens
                  WHERE user_id = $1 AND created_at > now() - make_interval(secs => $2)) AS live_families`,
    [subject.userId, LIVE_ACCESS_WINDOW_SECONDS],
  )) as [{ live_families: string[] }];
  await manager.query(`DELETE FROM auth.code_guesses WHERE email_hash = sha256(convert_to($1::text, 'UTF8'))`, [subject.email]);
  await manager.query(`DELETE FROM auth.users WHERE id = $1`, [subject.userId]);
  await manager.query(deleteOutboxRowsAboutSql('auth'), [subject.userId, subject.email]);
  await manager.query(outboxInsertSql('auth', 1), eraseJobs);
  return liveFamilies;
}

/**
 * The unfinished deletion a spent confirmation started, for the client who confirms again because the first answer was
 * lost: the same answer, and nothing done twice. Once the deletion completes its record no longer knows the account.
 */
async function erasedBefore(manager: EntityManager, tokenHash: Buffer): Promise<Confirmation> {
  const [deletion] = (await manager.query(`SELECT id, user_id FROM auth.account_deletions WHERE confirmation_token_hash = $1 AND completed_at IS NULL`, [
    tokenHash,
  ])) as { id: string; user_id: string }[];
  return deletion ? { outcome: 'erased-before', deletionId: deletion.id, userId: deletion.user_id } : { outcome: 'invalid' };
}

export class AccountDeletionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The user's e-mail and role, and a stored confirmation with the job that e-mails its link. */
  async addConfirmation(
    userId: string,
    confirmation: { tokenHash: Buffer; expiresAt: Date },
    mailJob: (email: string) => Promise<JobRequest>,
  ): Promise<{ role: UserRole } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [user] = (await manager.query(`SELECT email, role FROM auth.users WHERE id = $1`, [userId])) as { email: string; role: UserRole }[];
      if (!user) return undefined;
      if (user.role !== 'client') return { role: user.role };
      await manager.query(`INSERT INTO auth.deletion_confirmations (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
        confirmation.tokenHash,
        userId,
        confirmation.expiresAt,
      ]);
      await manager.query(outboxInsertSql('auth', 1), outboxRows([await mailJob(user.email)]));
      return { role: user.role };
    });
  }

  /**
   * Spends a confirmation and, when its user is still a client, erases the auth part in one transaction: the
   * deletion record (naming the subject until it completes), the audit log's mentions replaced by the record's id,
   * the user and with it their links, refresh tokens and confirmations, their code-guess row and outbox jobs, and one
   * erase job per other part. A token already spent by an unfinished deletion answers that deletion again, and
   * nothing more: waiting on the row the first confirmation deleted, a concurrent second one sees its deletion.
   * `beforeCommit` ends the sessions while the transaction can still roll back.
   */
  async confirm(tokenHash: Buffer, deletionId: string, beforeCommit: (userId: string, liveFamilies: string[]) => Promise<void>): Promise<Confirmation> {
    return this.dataSource.transaction(async (manager) => {
      // An UPDATE or DELETE answers [rows, count] through TypeORM.
      const [[spent]] = (await manager.query(`DELETE FROM auth.deletion_confirmations WHERE token_hash = $1 AND expires_at > now() RETURNING user_id`, [
        tokenHash,
      ])) as [{ user_id: string }[], number];
      if (!spent) return erasedBefore(manager, tokenHash);
      const [user] = (await manager.query(`SELECT id, email, role FROM auth.users WHERE id = $1 FOR UPDATE`, [spent.user_id])) as {
        id: string;
        email: string;
        role: UserRole;
      }[];
      if (!user) return { outcome: 'invalid' };
      // Given another role since asking: refused as the request would be now, the link spent with it.
      if (user.role !== 'client') return { outcome: 'not-a-client' };
      const liveFamilies = await eraseAccount(manager, deletionId, { userId: user.id, email: user.email }, tokenHash);
      await beforeCommit(user.id, liveFamilies);
      return { outcome: 'erased', deletionId, userId: user.id, liveFamilies };
    });
  }

  /**
   * After a database restore: erases again an account erased after the backup was taken, as a confirmation does, under
   * a new deletion whose parts are queued through the outbox. False when an unfinished deletion of the account is
   * already there (the restored one, whose parts the sweep queues again). No session is ended: the restore step runs
   * before the apps start, and the user's refresh tokens go with the user.
   */
  async eraseAgain(deletionId: string, subject: DeletionSubject): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // The user's lock orders this against a confirmation of the same account, as the confirmation's own takes it.
      await manager.query(`SELECT 1 FROM auth.users WHERE id = $1 FOR UPDATE`, [subject.userId]);
      const open = (await manager.query(`SELECT 1 FROM auth.account_deletions WHERE user_id = $1 AND completed_at IS NULL`, [subject.userId])) as unknown[];
      if (open.length > 0) return false;
      await eraseAccount(manager, deletionId, subject, null);
      return true;
    });
  }

  /**
   * Queues again, through the outbox and under each part's own job id, the erase job of every part still open whose
   * job was last handed to BullMQ more than `idleMs` ago, or whose outbox row is gone. A job still in Redis (waiting,
   * retrying, or failed for good and left to an admin) is left as it is; one Redis lost is added again. Returns how many
   * parts it queued.
   */
  async requeueOpenParts(idleMs: number): Promise<number> {
    // A part whose row is pending is on its way already.
    const open = (await this.dataSource.query(
      `SELECT p.deletion_id, p.part, p.job_id FROM auth.account_deletion_parts p LEFT JOIN auth.outbox o ON o.id = p.job_id
       WHERE p.done_at IS NULL AND p.job_id IS NOT NULL AND (o.id IS NULL OR o.dispatched_at < now() - make_interval(secs => $1))`,
      [idleMs / 1000],
    )) as { deletion_id: string; part: ErasedPart; job_id: string }[];
    if (open.length === 0) return 0;
    const [, queues, names, payloads] = outboxRows(open.map((row) => eraseJob(row.deletion_id, row.part)));
    await this.dataSource.query(outboxRequeueSql('auth', 1), [open.map((row) => row.job_id), queues, names, payloads]);
    return open.length;
  }

  /** Whom an unfinished deletion erases; undefined when it is complete or unknown. */
  async subject(deletionId: string): Promise<DeletionSubject | undefined> {
    const [row] = (await this.dataSource.query(`SELECT user_id, email FROM auth.account_deletions WHERE id = $1 AND completed_at IS NULL`, [deletionId])) as {
      user_id: string;
      email: string;
    }[];
    return row ? { userId: row.user_id, email: row.email } : undefined;
  }

  /**
   * Marks a part done (a repeat changes nothing). When it was the last, the audit log is searched for the account
   * once more, then the record completes and forgets whose account it was, and the confirmation it spent. Undefined
   * for an unknown deletion.
   */
  async markPartDone(deletionId: string, part: DeletionPart): Promise<{ completed: boolean } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      // Parts report at once from several services: the record's lock makes the last of them see every other.
      const [record] = (await manager.query(`SELECT completed_at, user_id, email FROM auth.account_deletions WHERE id = $1 FOR UPDATE`, [deletionId])) as {
        completed_at: Date | null;
        user_id: string;
        email: string;
      }[];
      if (!record) return undefined;
      if (record.completed_at) return { completed: true };
      await manager.query(`UPDATE auth.account_deletion_parts SET done_at = now() WHERE deletion_id = $1 AND part = $2 AND done_at IS NULL`, [
        deletionId,
        part,
      ]);
      const [{ unfinished }] = (await manager.query(
        `SELECT count(*)::int AS unfinished FROM auth.account_deletion_parts WHERE deletion_id = $1 AND done_at IS NULL`,
        [deletionId],
      )) as [{ unfinished: number }];
      if (unfinished > 0) return { completed: false };
      // An audit event whose insert began before the confirmation committed, and committed after its update, saw
      // neither the record nor its update: this is the last moment the record can still say whose entries to change.
      await anonymiseAuditEntries(manager, { userId: record.user_id, email: record.email }, deletionId);
      await manager.query(
        `UPDATE auth.account_deletions SET completed_at = now(), user_id = NULL, email = NULL, confirmation_token_hash = NULL WHERE id = $1`,
        [deletionId],
      );
      return { completed: true };
    });
  }

  async list(request: { cursor?: string; limit: number }): Promise<{ items: AccountDeletion[]; nextCursor: string | null }> {
    const after = decodeCursor(request.cursor);
    const rows = (await this.dataSource.query(
      `SELECT d.id, d.requested_at, d.completed_at, d.requested_at::text AS cursor_at,
              json_agg(json_build_object('part', p.part, 'done_at', p.done_at) ORDER BY array_position($3::text[], p.part)) AS parts
       FROM auth.account_deletions d JOIN auth.account_deletion_parts p ON p.deletion_id = d.id
       WHERE $1::timestamptz IS NULL OR (d.requested_at, d.id) < ($1::timestamptz, $2::uuid)
       GROUP BY d.id ORDER BY d.requested_at DESC, d.id DESC LIMIT $4`,
      [after?.key ?? null, after?.id ?? null, deletionParts, request.limit + 1],
    )) as Keyed<DeletionRow>[];
    const page = pageOf(rows, request.limit, positionOfRow);
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((row) => ({
        id: row.id,
        requestedAt: row.requested_at.toISOString(),
        completedAt: row.completed_at?.toISOString() ?? null,
        parts: row.parts.map(({ part, done_at }) => ({ part, doneAt: done_at ? new Date(done_at).toISOString() : null })),
      })),
    };
  }
}
