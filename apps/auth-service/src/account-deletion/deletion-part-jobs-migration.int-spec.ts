import { randomUUID } from 'node:crypto';
import { deletionParts, QUEUES } from '@spark/contracts';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import type { DataSource } from 'typeorm';
import { DeletionPartJobs1765000000310 } from '../migrations/1765000000310-deletion-part-jobs';
import { authMigrations } from '../migrations';
import { AccountDeletionRepository } from './account-deletion.repository';

// Deletions confirmed before each part kept its job's id: a part whose job may still be in Redis must keep that job's
// id, or queued again it would run beside it.
describe('the migration that gives each deletion part its job id (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const deletionId = randomUUID();
  const otherDeletionId = randomUUID();
  const rowIds = { leads: randomUUID(), progress: randomUUID(), other: randomUUID() };

  const open = (migrations: typeof authMigrations) => openMigrated({ url: database.url, schema: 'auth', migrations });

  beforeAll(async () => {
    database = await createTestDatabase();
    const before = await open(authMigrations.slice(0, authMigrations.indexOf(DeletionPartJobs1765000000310)));
    for (const id of [deletionId, otherDeletionId]) {
      await before.query(`INSERT INTO auth.account_deletions (id, user_id, email) VALUES ($1, $2, $3)`, [id, randomUUID(), `${id}@example.com`]);
      await before.query(
        `INSERT INTO auth.account_deletion_parts (deletion_id, part, done_at)
         SELECT $1, part, CASE WHEN part = 'auth' THEN now() END FROM unnest($2::text[]) AS part`,
        [id, deletionParts],
      );
    }
    // The leads and progress rows are still in the outbox, the others were pruned; another deletion's leads row too.
    await before.query(
      `INSERT INTO auth.outbox (id, queue, job_name, payload, dispatched_at)
       SELECT id, queue, 'erase-account', jsonb_build_object('deletionId', deletion), now() - interval '2 hours'
       FROM unnest($1::uuid[], $2::text[], $3::uuid[]) AS row(id, queue, deletion)`,
      [
        [rowIds.leads, rowIds.progress, rowIds.other],
        [QUEUES.deletionLeads, QUEUES.deletionProgress, QUEUES.deletionLeads],
        [deletionId, deletionId, otherDeletionId],
      ],
    );
    await before.destroy();
    dataSource = await open(authMigrations);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const jobIdsOf = async (id: string): Promise<Record<string, string | null>> => {
    const rows: { part: string; job_id: string | null }[] = await dataSource.query(
      `SELECT part, job_id FROM auth.account_deletion_parts WHERE deletion_id = $1`,
      [id],
    );
    return Object.fromEntries(rows.map((row) => [row.part, row.job_id]));
  };

  it("gives a part whose erase row is still in the outbox that row's id, and one whose row was pruned a new one", async () => {
    const jobIds = await jobIdsOf(deletionId);
    expect(jobIds).toMatchObject({ auth: null, leads: rowIds.leads, progress: rowIds.progress });
    expect((await jobIdsOf(otherDeletionId)).leads).toBe(rowIds.other);
    const pruned = [jobIds.ditl, jobIds.notifier, jobIds.investor];
    expect(pruned).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    expect(new Set(pruned).size).toBe(3);
    expect(pruned).not.toContain(rowIds.other);
  });

  it('queues an open part again under the id of the job it had', async () => {
    await new AccountDeletionRepository(dataSource).requeueOpenParts(3600 * 1000);
    const [leads]: { dispatched_at: Date | null }[] = await dataSource.query(`SELECT dispatched_at FROM auth.outbox WHERE id = $1`, [rowIds.leads]);
    expect(leads).toEqual({ dispatched_at: null });
  });
});
