import { MAIL_ATTEMPTS, jobOptionsOf, mailRetryDelay, maxStalledCountOf } from './retry-budget';

describe('the mail retry budget', () => {
  const defaults = { firstDelayMs: 1000, maxDelayMs: 300_000 };
  const middle = () => 0.5;

  it('doubles from the first delay and stops growing at the cap', () => {
    const delays = [1, 2, 3, 9, 10, 39].map((attempt) => mailRetryDelay(attempt, defaults, middle));
    expect(delays).toEqual([1000, 2000, 4000, 256_000, 300_000, 300_000]);
  });

  it('spreads retries by at most 10 % either way', () => {
    expect(mailRetryDelay(4, defaults, () => 0)).toBe(7200);
    expect(mailRetryDelay(4, defaults, () => 1)).toBe(8800);
  });

  it('outlasts an outage of two hours with the defaults, where the old 8 attempts gave up after about two minutes', () => {
    const retries = MAIL_ATTEMPTS - 1;
    const totalMs = Array.from({ length: retries }, (_, index) => mailRetryDelay(index + 1, defaults, () => 0)).reduce((sum, delay) => sum + delay, 0);
    expect(totalMs).toBeGreaterThan(2 * 3600 * 1000);
    expect(jobOptionsOf('mail').attempts).toBe(MAIL_ATTEMPTS);
    expect(jobOptionsOf('ditl').attempts).toBe(8);
  });
});

describe('how often a job may outlive the worker holding it', () => {
  it('is as often as it may fail for e-mail, pushes and deletion parts, which are safe to deliver again', () => {
    for (const queue of ['mail', 'push', 'account-deletion-leads', 'account-deletion-notifier'] as const) {
      expect(maxStalledCountOf(queue)).toBe(jobOptionsOf(queue).attempts);
    }
    expect(maxStalledCountOf('mail')).toBe(MAIL_ATTEMPTS);
  });

  it('stays short for the generations and archives that may themselves kill their process', () => {
    expect(maxStalledCountOf('ditl')).toBe(2);
    expect(maxStalledCountOf('export')).toBe(2);
  });
});
