import { REMINDER_GRACE_MINUTES } from '@spark/contracts';
import { EXPORT_GRANT_VALID_MS } from '@spark/messaging';
import { Backoffs, type MinimalJob } from 'bullmq';
import { CAPPED_BACKOFFS, cappedBackoffStrategy, type CappedQueue, cappedRetryDelay, jobOptionsOf, maxStalledCountOf } from './retry-budget';

const HOUR_MS = 3600 * 1000;
const sum = (delays: number[]) => delays.reduce((total, delay) => total + delay, 0);

/** The delays BullMQ waits before each retry of a job of `queue`, as its worker's strategy answers with this jitter. */
async function retryDelays(queue: CappedQueue, random: number): Promise<number[]> {
  const { attempts = 1, backoff } = jobOptionsOf(queue);
  const options = backoff === undefined ? undefined : Backoffs.normalize(backoff);
  if (!options) throw new Error(`${queue} jobs carry no backoff`);
  const strategy = cappedBackoffStrategy(queue);
  jest.spyOn(Math, 'random').mockReturnValue(random);
  const delays: number[] = [];
  for (let attemptsMade = 1; attemptsMade < attempts; attemptsMade++) {
    delays.push((await Backoffs.calculate(options, attemptsMade, new Error('dependency down'), {} as MinimalJob, strategy)) ?? 0);
  }
  return delays;
}

afterEach(() => jest.restoreAllMocks());

describe('the mail retry budget', () => {
  const defaults = CAPPED_BACKOFFS.mail;
  const middle = () => 0.5;

  it('doubles from the first delay and stops growing at the cap', () => {
    const delays = [1, 2, 3, 9, 10, 39].map((attempt) => cappedRetryDelay(attempt, defaults, middle));
    expect(delays).toEqual([1000, 2000, 4000, 256_000, 300_000, 300_000]);
  });

  it('spreads retries by at most 10 % either way', () => {
    expect(cappedRetryDelay(4, defaults, () => 0)).toBe(7200);
    expect(cappedRetryDelay(4, defaults, () => 1)).toBe(8800);
  });

  it('outlasts an outage of two hours with the defaults, where the old 8 attempts gave up after about two minutes', async () => {
    expect(sum(await retryDelays('mail', 0))).toBeGreaterThan(2 * HOUR_MS);
    expect(jobOptionsOf('mail').attempts).toBe(40);
    expect(jobOptionsOf('ditl').attempts).toBe(8);
  });
});

describe('the export retry budget', () => {
  it('doubles from a second up to a quarter of an hour', async () => {
    const delays = await retryDelays('export', 0.5);
    expect(delays.slice(0, 11)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 900_000]);
    expect(delays.slice(10).every((delay) => delay === 900_000)).toBe(true);
  });

  it('retries for five hours at least, where the old 8 attempts gave up after about two minutes', async () => {
    expect(sum(await retryDelays('export', 0))).toBeGreaterThan(5 * HOUR_MS);
  });

  it('ends well inside the day its grant lets the other services answer, however the jitter falls', async () => {
    const longest = await retryDelays('export', 1);
    expect(Math.max(...longest)).toBe(990_000);
    expect(sum(longest)).toBeLessThan(7 * HOUR_MS);
    expect(sum(longest)).toBeLessThan(EXPORT_GRANT_VALID_MS / 3);
  });
});

describe('the push retry budget', () => {
  it('doubles from a second up to five minutes', async () => {
    const delays = await retryDelays('push', 0.5);
    expect(delays.slice(0, 10)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000]);
    expect(delays.slice(9).every((delay) => delay === 300_000)).toBe(true);
  });

  it('outlasts an outage of an hour and a half, and never sends a reminder later than a missed one may go', async () => {
    expect(sum(await retryDelays('push', 0))).toBeGreaterThan(1.5 * HOUR_MS);
    expect(sum(await retryDelays('push', 1))).toBeLessThanOrEqual(REMINDER_GRACE_MINUTES * 60 * 1000);
  });
});

describe('the capped back-off strategy', () => {
  it('takes the delays its worker is configured with, as the tests make them short', () => {
    const short = cappedBackoffStrategy('export', { firstDelayMs: 10, maxDelayMs: 40 });
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    expect([1, 2, 3, 4, 30].map((attemptsMade) => short(attemptsMade, CAPPED_BACKOFFS.export.type))).toEqual([10, 20, 40, 40, 40]);
  });

  it("answers another queue's type with its first delay rather than that queue's schedule", () => {
    expect(cappedBackoffStrategy('push')(12, CAPPED_BACKOFFS.mail.type)).toBe(1000);
  });
});

describe('how often a job may outlive the worker holding it', () => {
  it('is as often as it may fail for e-mail, pushes and deletion parts, which are safe to deliver again', () => {
    for (const queue of ['mail', 'push', 'account-deletion-leads', 'account-deletion-notifier'] as const) {
      expect(maxStalledCountOf(queue)).toBe(jobOptionsOf(queue).attempts);
    }
    expect(maxStalledCountOf('mail')).toBe(40);
  });

  it('stays short for the generations and archives that may themselves kill their process', () => {
    expect(maxStalledCountOf('ditl')).toBe(2);
    expect(maxStalledCountOf('export')).toBe(2);
  });
});
