import { QUEUES, type QueueName } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { eventually } from '@spark/testing';
import type { JobType } from 'bullmq';
import { Client } from 'pg';
import type { InProcessStack } from './in-process-stack';

// Their job schedulers always hold the next run as a delayed job; a run that is due or running still counts.
const scheduledQueues: ReadonlySet<QueueName> = new Set([QUEUES.reminders, QUEUES.sparkUploads, QUEUES.exportSweep, QUEUES.deletionPartsSweep]);

/**
 * Waits until nothing the stack was asked to do can still send or write anything: every service's outbox rows handed
 * to BullMQ, and no job waiting, running or due for a retry, with no hand-over between the two looks. Only then does
 * a count of what happened "exactly once" prove it; a fixed pause proves nothing on a machine slower than the test's.
 */
export async function untilIdle(stack: InProcessStack, timeoutMs = 30_000): Promise<void> {
  const db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
  try {
    const { rows: schemas } = await db.query<{ schema: string }>(
      `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox' ORDER BY 1`,
    );
    const outboxes = async () => {
      const counts = schemas.map(({ schema }) => `SELECT count(*) FILTER (WHERE dispatched_at IS NULL) AS pending, count(*) AS rows FROM "${schema}".outbox`);
      const { rows } = await db.query<{ pending: number; rows: number }>(
        `SELECT coalesce(sum(pending), 0)::int AS pending, coalesce(sum(rows), 0)::int AS rows FROM (${counts.join(' UNION ALL ') || 'SELECT 0, 0'}) AS each_outbox`,
      );
      return rows[0] ?? { pending: 0, rows: 0 };
    };
    const jobsLeft = async () => {
      const counts = await Promise.all(
        Object.values(QUEUES).map((name) => {
          const states: JobType[] = ['wait', 'active', 'prioritized', 'waiting-children', ...(scheduledQueues.has(name) ? [] : ['delayed' as const])];
          return jobs.queue(name).getJobCounts(...states);
        }),
      );
      return counts.flatMap((byState) => Object.values(byState)).reduce((sum, count) => sum + count, 0);
    };
    await eventually(
      async () => {
        const before = await outboxes();
        const queued = await jobsLeft();
        const after = await outboxes();
        return before.pending === 0 && queued === 0 && after.pending === 0 && after.rows === before.rows;
      },
      timeoutMs,
      'every outbox row to be dispatched and every queue to be idle',
    );
  } finally {
    await jobs.close();
    await db.end();
  }
}
