import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { JobStatus } from '@bull-board/api/typings/app';
import { jobFieldsShownOf, type QueueName } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { Job, Queue } from 'bullmq';

const HIDDEN = '(hidden)';
/** The sign-in code's length: a shorter hidden value (a flag, a count) is no secret, and blanking it would garble every text it occurs in. */
const SHORTEST_SECRET = 6;

const stringsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(stringsIn) : [];

/** A link's token may be quoted without the rest of the link: its query and fragment parameters count as secrets of their own. */
const parametersOf = (value: string): string[] =>
  URL.canParse(value) ? [...new URL(value).searchParams.values(), ...new URLSearchParams(new URL(value).hash.slice(1)).values()] : [];

/**
 * What the board shows of a job's payload (the fields jobFieldsShownOnQueueBoard lists, the others "(hidden)"),
 * and a blanker for the hidden values, which a failed reason, stack trace, log line or return value can quote.
 */
function adminViewOf(queue: QueueName, name: string, data: unknown) {
  const shown = new Set(jobFieldsShownOf(queue, name));
  const fields = data && typeof data === 'object' && !Array.isArray(data) ? Object.entries(data) : undefined;
  const hiddenValues = fields ? fields.filter(([field]) => !shown.has(field)).flatMap(([, value]) => stringsIn(value)) : stringsIn(data);
  const secrets = [...new Set(hiddenValues.flatMap((value) => [value, ...parametersOf(value)]).flatMap((value) => [value, encodeURIComponent(value)]))]
    .filter((secret) => secret.length >= SHORTEST_SECRET)
    // The whole link first, so it reads as one "(hidden)" rather than a link with its token blanked.
    .sort((a, b) => b.length - a.length);
  const blank = (text: string) => secrets.reduce((blanked, secret) => blanked.replaceAll(secret, HIDDEN), text);
  const blankAll = (value: unknown): unknown =>
    typeof value === 'string'
      ? blank(value)
      : Array.isArray(value)
        ? value.map(blankAll)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, blankAll(inner)]))
          : value;
  const payload = fields ? Object.fromEntries(fields.map(([field, value]) => [field, shown.has(field) ? value : HIDDEN])) : HIDDEN;
  return { payload, blank, blankAll };
}

/**
 * Bull Board's BullMQ adapter, every job as an admin may see it: the payload through adminViewOf, and whatever
 * else the board shows of the job (failed reason, stack trace, progress, return value, logs) with the hidden values
 * blanked. The board reads jobs through this adapter only, so a job field nobody listed never reaches a browser.
 * The job stays BullMQ's own for everything but its JSON and its retry, which runs a failed job only (409 otherwise).
 */
export class AdminQueueAdapter extends BullMQAdapter {
  constructor(
    private readonly queueName: QueueName,
    queue: Queue,
  ) {
    super(queue);
  }

  override async getJob(id: string): Promise<Job | undefined> {
    const job = await super.getJob(id);
    return job && this.asShown(job);
  }

  override async getJobs(statuses: JobStatus[], start?: number, end?: number): Promise<Job[]> {
    return (await super.getJobs(statuses, start, end)).map((job) => this.asShown(job));
  }

  /** No logs of a job that is gone: without its payload nothing says what in them is secret. */
  override async getJobLogs(id: string): Promise<string[]> {
    const [job, logs] = await Promise.all([super.getJob(id), super.getJobLogs(id)]);
    if (!job) return [];
    const { blank } = adminViewOf(this.queueName, job.name, job.data);
    return logs.map(blank);
  }

  override async getJobSchedulers(): ReturnType<BullMQAdapter['getJobSchedulers']> {
    return (await super.getJobSchedulers()).map((scheduler) => {
      if (!scheduler.template) return scheduler;
      const { payload, blankAll } = adminViewOf(this.queueName, scheduler.name, scheduler.template.data);
      return { ...scheduler, template: { ...(blankAll(scheduler.template) as object), data: payload } };
    });
  }

  private asShown(job: Job): Job {
    const { payload, blankAll } = adminViewOf(this.queueName, job.name, job.data);
    const toJSON = () => ({ ...(blankAll({ ...job.toJSON(), data: undefined }) as object), data: payload });
    // Bull Board retries a completed job too, which would run finished work (an e-mail, an erasure) again.
    const retry = (state: Parameters<Job['retry']>[0] = 'failed') =>
      state === 'failed' ? job.retry(state) : Promise.reject(new DomainError('CONFLICT', 'Only a failed job can be retried.'));
    return new Proxy(job, {
      get: (target, property) => {
        if (property === 'toJSON') return toJSON;
        if (property === 'retry') return retry;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}
