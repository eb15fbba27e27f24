import { randomUUID } from 'node:crypto';
import { developmentSigningKeys, loadConfig, progressEnv } from '@spark/config';
import { type AuthUser, exportPrefix, QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { createLogger } from '@spark/logging';
import { type ServiceBus, ServiceUnavailableError, signedExportGrant } from '@spark/messaging';
import { openMigrated } from '@spark/persistence';
import { eventually, testRedisUrl, uniquePrefix, useDatabaseAndS3 } from '@spark/testing';
import { Redis } from 'ioredis';
import { progressMigrations } from '../migrations';
import { startExportWorker } from './export-worker';

/** More failed attempts than the export's old budget had (BullMQ's `exponential` from a second, about two minutes). */
const ATTEMPTS_WHILE_DOWN = 9;

/** The other services as the worker asks them over the bus, the auth-service down for its first requests. */
function busWithAuthDownFor(requests: number, account: AuthUser) {
  const asked = { auth: 0 };
  const answers: Record<string, unknown> = {
    'ditl.export-presentation': { generation: null, html: null },
    'leads.export-lead': null,
    'investor.export-investor': null,
  };
  const request = (async (pattern: string) => {
    if (pattern !== 'auth.export-account') return answers[pattern];
    asked.auth += 1;
    if (asked.auth <= requests) throw new ServiceUnavailableError('auth', 50);
    return account;
  }) as ServiceBus['request'];
  return { bus: { request }, asked };
}

describe('a data export while a service it reads is down (real BullMQ, Redis, PostgreSQL and S3)', () => {
  const { dataSource, s3 } = useDatabaseAndS3((url) => openMigrated({ url, schema: 'progress', migrations: progressMigrations }));

  it('is retried past the old two-minute budget and completes once, with one archive and one e-mail', async () => {
    const userId = randomUUID();
    const exportId = randomUUID();
    const email = 'outage-export@spark.test';
    await dataSource().query(`INSERT INTO progress.data_exports (id, user_id) VALUES ($1, $2)`, [exportId, userId]);
    const config = loadConfig(progressEnv, {
      NODE_ENV: 'test',
      REDIS_URL: await testRedisUrl(),
      BUS_PREFIX: uniquePrefix('export-retry'),
      ...s3().env,
      EXPORT_RETRY_FIRST_MS: '20',
      EXPORT_RETRY_MAX_MS: '80',
    });
    const account: AuthUser = {
      id: userId,
      email,
      created_at: new Date().toISOString(),
      user_metadata: { full_name: null, role: 'client', onboarding_completed_at: null, transformation_goal: null, assigned_coach_id: null },
    };
    const { bus, asked } = busWithAuthDownFor(ATTEMPTS_WHILE_DOWN, account);
    let kicks = 0;
    const logger = createLogger('export-worker-test', 'silent');
    const worker = startExportWorker({ config, dataSource: dataSource(), logger, bus, kickOutbox: () => (kicks += 1) });
    const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
    const jobs = new JobQueues(connection, config.BUS_PREFIX, developmentSigningKeys());
    try {
      const grant = signedExportGrant(developmentSigningKeys(), { userId, email });
      const data = { userId, email, requestedBy: userId, exportId, grant };
      await jobs.add([{ job: { queue: QUEUES.export, name: 'export-client-data', data }, jobId: exportId }]);
      const queue = jobs.queue(QUEUES.export);
      const finished = async () => {
        const state = await queue.getJobState(exportId);
        return (state === 'completed' || state === 'failed') && state;
      };
      const state = await eventually(finished, 170_000, 'the export job to finish');
      const job = await queue.getJob(exportId);

      const [exported] = (await dataSource().query(`SELECT status FROM progress.data_exports WHERE id = $1`, [exportId])) as { status: string }[];
      const [{ mails }] = (await dataSource().query(`SELECT count(*)::int AS mails FROM progress.outbox WHERE job_name = 'data-export-ready'`)) as {
        mails: number;
      }[];
      expect({ state, attemptsMade: job?.attemptsMade, authAsked: asked.auth }).toEqual({
        state: 'completed',
        attemptsMade: ATTEMPTS_WHILE_DOWN + 1,
        authAsked: ATTEMPTS_WHILE_DOWN + 1,
      });
      expect({ status: exported?.status, mails, kicks, archives: (await s3().keysUnder(exportPrefix(userId))).length }).toEqual({
        status: 'ready',
        mails: 1,
        kicks: 1,
        archives: 1,
      });
    } finally {
      await worker.close();
      await jobs.queue(QUEUES.export).obliterate({ force: true });
      await jobs.queue(QUEUES.export).close();
      connection.disconnect();
    }
  }, 180_000);
});
