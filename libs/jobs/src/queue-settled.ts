import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';

const POLL_MS = 100;

/**
 * Resolves once `queue` has no job waiting, running or waiting out a retry's delay, or once `boundMs` has passed,
 * whichever comes first; a Redis that does not answer meanwhile holds it no longer than the bound. For work that
 * should go before another worker starts, without that worker waiting on it for long.
 */
export async function queueSettled(queue: Pick<Queue, 'getJobCounts'>, boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (let left = boundMs; left > 0; left = deadline - Date.now()) {
    const timeUp = new AbortController();
    const counts = await Promise.race([
      queue.getJobCounts('wait', 'active', 'prioritized', 'delayed'),
      sleep(left, undefined, { signal: timeUp.signal }).catch(() => undefined),
    ]).finally(() => timeUp.abort());
    if (!counts || Object.values(counts).every((count) => count === 0)) return;
    await sleep(Math.min(POLL_MS, deadline - Date.now()));
  }
}
