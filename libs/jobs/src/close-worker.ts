import { unlessAborted } from '@spark/messaging';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';

/** What ioredis says of a connection that has lost Redis: between attempts to reconnect, or given up. */
const LOST: ReadonlySet<string> = new Set(['close', 'reconnecting', 'end']);

/**
 * Watches whether `connection` still answers, for a stop that must not wait on a Redis that is down: ioredis holds a
 * command queued while its connection reconnects, and dropping the connection then leaves the command unsettled for
 * ever (docs/decisions.md, "Waits on Redis end when their process stops"). `signal` aborts at once when the connection
 * has lost Redis, else when it closes (one still connecting closes when its attempt fails); dispose of the watch once
 * the wait is over.
 */
export function watchReachability(connection: Redis): { signal: AbortSignal } & Disposable {
  const lost = new AbortController();
  const abort = () => lost.abort(new Error('Redis does not answer'));
  if (LOST.has(connection.status)) abort();
  else connection.once('close', abort);
  return { signal: lost.signal, [Symbol.dispose]: () => connection.off('close', abort) };
}

/**
 * Stops a BullMQ worker. While Redis (its `connection`) answers, the worker first finishes its active jobs, as a
 * drain should. While it does not, no job can finish (a job's end is a write to Redis): the worker closes at once, or
 * is let go when Redis goes away during its close, and its jobs' locks lapse so that another worker runs them, as
 * after a crash.
 */
export async function closeWorker(worker: Worker, connection: Redis): Promise<void> {
  if (LOST.has(connection.status)) return worker.close(true);
  // A worker closed while its connections still connect has them dropped, and BullMQ then reports their failed start
  // on an emitter whose listeners the close removed: unheard, that error would crash the process.
  const closeOnceConnected = async () => {
    await worker.waitUntilReady();
    await worker.close();
  };
  await unlessRedisLost(closeOnceConnected(), connection);
}

/**
 * Waits for `work`, a step of a stop, unless `connection` loses Redis first: then the step is let go, as a wait on
 * Redis would last until Redis came back. A worker that `closeWorker` let go is still closing, and a later
 * `worker.close()` (Nest's own, when its context closes) returns that same unfinished close.
 */
export async function unlessRedisLost(work: Promise<unknown>, connection: Redis): Promise<void> {
  const reachability = watchReachability(connection);
  try {
    await unlessAborted(work, reachability.signal);
  } finally {
    reachability[Symbol.dispose]();
  }
}
