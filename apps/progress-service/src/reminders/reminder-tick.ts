import type { ProgressConfig } from '@spark/config';
import { greetingName, QUEUES } from '@spark/contracts';
import { type JobHandlers, type JobRequest, MailSealer, outboxInsertSql, outboxRows, startRepeatingJob } from '@spark/jobs';
import type { Logger } from '@spark/logging';
import { inUnitOfWork, type ServiceDataSource } from '@spark/persistence';
import { type DueReminder, RemindersRepository } from './reminders.repository';

/** Reminders claimed per transaction: a large minute (everyone at 20:00 in one zone) goes in several. */
const CLAIM_BATCH = 1000;

const jobFor = async (reminder: DueReminder, sealer: MailSealer): Promise<JobRequest> =>
  reminder.push_subscription
    ? {
        queue: QUEUES.push,
        name: 'spark-reminder-push',
        data: {
          subscription: reminder.push_subscription,
          firstName: greetingName(reminder.full_name),
          userId: reminder.user_id,
          localDate: reminder.local_date,
          dayEndsAt: reminder.day_ends_at.toISOString(),
        },
      }
    : {
        queue: QUEUES.mail,
        name: 'spark-reminder',
        data: {
          userId: reminder.user_id,
          email: reminder.email,
          localDate: reminder.local_date,
          dayEndsAt: reminder.day_ends_at.toISOString(),
          sealed: await sealer.seal('spark-reminder', reminder.email, { unsubscribeToken: reminder.unsubscribe_token }),
        },
      };

/**
 * The reminder tick: a BullMQ job scheduler adds one `send-due-reminders` job every REMINDER_TICK_MS, whichever
 * replicas are running, and one worker takes it. Each run claims the due reminders in batches and writes a push or
 * mail job per reminder still needed through the outbox, in the claiming transaction: a reminder is sent once.
 */
export function startReminderTick(deps: { config: ProgressConfig; dataSource: ServiceDataSource; logger: Logger; kickOutbox: () => void }) {
  const { config, dataSource, logger } = deps;
  const repository = new RemindersRepository(dataSource);
  const sealer = new MailSealer(config.MAIL_SEAL_PUBLIC_KEY);
  const handlers: JobHandlers<typeof QUEUES.reminders> = {
    'send-due-reminders': async () => {
      let sent = 0;
      for (let claimed = CLAIM_BATCH; claimed === CLAIM_BATCH;) {
        const batch = await inUnitOfWork(dataSource, async () => {
          const result = await repository.claimDue(CLAIM_BATCH);
          if (result.due.length > 0) {
            const jobs = await Promise.all(result.due.map((reminder) => jobFor(reminder, sealer)));
            await dataSource.query(outboxInsertSql('progress', 1), outboxRows(jobs));
          }
          return result;
        });
        claimed = batch.claimed;
        sent += batch.due.length;
        if (batch.due.length > 0) deps.kickOutbox();
      }
      if (sent > 0) logger.info({ sent }, 'reminders queued');
    },
  };
  return startRepeatingJob({
    redisUrl: config.REDIS_URL,
    busPrefix: config.BUS_PREFIX,
    queue: QUEUES.reminders,
    schedulerId: 'reminder-tick',
    everyMs: config.REMINDER_TICK_MS,
    jobName: 'send-due-reminders',
    handlers,
    logger,
  });
}
