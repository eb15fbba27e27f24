import { type JobPayload, leadRoleSchema, QUEUES } from '@spark/contracts';
import type { JobQueues } from '@spark/jobs';
import type { Redis } from 'ioredis';
import { z } from 'zod';

/** The cap's window: an hour of the clock, in UTC. */
export const HOUR_MS = 3_600_000;

/** The digest waits this long past its hour, so the decisions under way when the hour ended are in it. */
const DIGEST_GRACE_MS = 60_000;

/**
 * The leads a digest names, the hour's first; the others it counts. Only these are kept, so a flood of leads holds
 * Redis to a count.
 */
const DIGEST_NAMES = 5;

/**
 * How long an hour's gathered leads (their addresses) are kept after the hour if the digest cannot be sent: past
 * a digest's retries with the default retry budget (docs/decisions.md, "Exactly one e-mail per job"), and hours, not
 * days (docs/data-rights.md). A sent digest drops them at once.
 */
const GATHERED_KEPT_MS = 6 * HOUR_MS;

/** When an hour's keys expire, in Unix seconds. */
const keptUntil = (windowStart: number) => Math.ceil((windowStart + HOUR_MS + GATHERED_KEPT_MS) / 1000);

/**
 * How long an alert's decision is kept: as long as its finished job is, past which only the outbox adds the job
 * again, after Redis lost the decision too. A failed alert, which an admin may retry later, was never sent, so a
 * fresh decision doubles nothing. It holds no address, only the gateway's signature of the form.
 */
const DECISION_KEPT_S = 24 * 3600;

/**
 * The alert's decision, once per signature whatever the number of deliveries: sent one by one while the hour's count
 * is under the cap, else counted for the hour's digest, and kept for it to name while it names fewer than it may. An
 * hour whose digest has already read it (a clock behind the others, a digest run early by hand) sends the alert one
 * by one rather than lose it.
 * KEYS: the decision, the hour's counts, the hour's named leads. ARGV: the cap, the signature, the lead, when the
 * hour's keys expire (Unix seconds), how long the decision is kept (seconds), the hour's start, the leads named.
 */
const DECIDE = `
local decided = redis.call('GET', KEYS[1])
if decided then return decided end
local decision = 'alert'
if redis.call('HEXISTS', KEYS[2], 'closed') == 0 then
  if tonumber(redis.call('HGET', KEYS[2], 'alerts') or '0') < tonumber(ARGV[1]) then
    redis.call('HINCRBY', KEYS[2], 'alerts', 1)
  else
    decision = 'digest ' .. ARGV[6]
    redis.call('HINCRBY', KEYS[2], 'gathered', 1)
    if redis.call('HLEN', KEYS[3]) < tonumber(ARGV[7]) then
      redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
      redis.call('EXPIREAT', KEYS[3], ARGV[4])
    end
  end
  redis.call('EXPIREAT', KEYS[2], ARGV[4])
end
redis.call('SET', KEYS[1], decision, 'EX', ARGV[5])
return decision`;

/** A lead a digest names: what the team's alert would have named but the visitor's words. */
const gatheredLeadSchema = z.object({ email: z.string(), role: leadRoleSchema, createdAt: z.string() });
export type GatheredLead = z.infer<typeof gatheredLeadSchema>;

export type AlertDecision = { send: 'alert' } | { send: 'digest'; windowStart: number };

/**
 * The cap on the team's new-lead alerts across every network: at most `perHour` alerts an hour go one by one, and the
 * hour's others go in one digest after it (`lead-alert-digest`, a delayed job the notifier queues for itself, signed
 * like every mail job). Its keys live beside the mail queue's, under the notifier's Redis user.
 */
export class LeadAlertCap {
  constructor(
    private readonly redis: Redis,
    private readonly jobs: JobQueues,
    readonly perHour: number,
  ) {}

  /** Sends the alert one by one, or gathers it for its hour's digest, which is then queued. */
  async decide(data: JobPayload<'mail', 'lead-alert'>, now = Date.now()): Promise<AlertDecision> {
    const windowStart = Math.floor(now / HOUR_MS) * HOUR_MS;
    const lead: GatheredLead = { email: data.email, role: data.role, createdAt: data.createdAt };
    const decided = String(
      await this.redis.eval(
        DECIDE,
        3,
        this.key(`decided:${data.submission.signature}`),
        this.key(String(windowStart)),
        this.gatheredKey(windowStart),
        this.perHour,
        data.submission.signature,
        JSON.stringify(lead),
        keptUntil(windowStart),
        DECISION_KEPT_S,
        windowStart,
        DIGEST_NAMES,
      ),
    );
    if (decided === 'alert') return { send: 'alert' };
    const gathered = { send: 'digest' as const, windowStart: Number(decided.split(' ')[1]) };
    // Queued again on a redelivery too: a worker that died after the decision may not have queued it, and BullMQ
    // ignores a job id it holds.
    await this.jobs.add([
      {
        job: { queue: QUEUES.mail, name: 'lead-alert-digest', data: { windowStart: new Date(gathered.windowStart).toISOString() } },
        jobId: `lead-alert-digest-${gathered.windowStart}`,
        delayMs: Math.max(0, gathered.windowStart + HOUR_MS + DIGEST_GRACE_MS - now),
      },
    ]);
    return gathered;
  }

  /** Closes the hour, so no later decision gathers into it, and reads how many it gathered and whom it names. */
  async close(windowStart: number): Promise<{ count: number; named: GatheredLead[] }> {
    const hour = this.key(String(windowStart));
    const replies = await this.redis
      .multi()
      .hset(hour, 'closed', '1')
      .expireat(hour, keptUntil(windowStart))
      .hget(hour, 'gathered')
      .hvals(this.gatheredKey(windowStart))
      .exec();
    if (!replies) throw new Error('the transaction that closes the hour was discarded');
    const [, , [countError, count] = [], [leadsError, leads] = []] = replies;
    if (countError ?? leadsError) throw countError ?? leadsError;
    const named = (leads as string[]).map((lead) => gatheredLeadSchema.parse(JSON.parse(lead)));
    return { count: Number(count ?? 0), named: named.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)) };
  }

  /** Forgets the addresses of the hour's leads once its digest went. */
  async forget(windowStart: number): Promise<void> {
    await this.redis.del(this.gatheredKey(windowStart));
  }

  private gatheredKey(windowStart: number): string {
    return this.key(`${windowStart}:leads`);
  }

  // Beside the queue's own keys, which are a job's id (never holding a colon), `<id>:<what BullMQ keeps>` or a word.
  private key(name: string): string {
    return this.jobs.queue(QUEUES.mail).toKey(`lead-alert-cap:${name}`);
  }
}
