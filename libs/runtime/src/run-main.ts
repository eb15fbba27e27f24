import { inspect } from 'node:util';
import { ConfigError } from '@spark/config';
import { DRAIN_SECONDS } from './drain-budget';
import type { Stop } from './stop-steps';

/**
 * Runs a process's async main: a configuration error prints the variables it names and exits 1
 * (so a missing production secret stops the process at start); any other start failure too.
 */
export function runMain(app: string, main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${app}: ${error.message}\n`);
    } else {
      // inspect() shows the stack and every `cause` below it (a stack alone hides the cause).
      process.stderr.write(`${app}: failed to start: ${inspect(error, { depth: 4 })}\n`);
    }
    process.exit(1);
  });
}

/**
 * Calls `stop` once on SIGINT/SIGTERM, then exits 0; exits 1 when the drain outlasts its budget (the orchestrator
 * would kill the process a little later anyway), saying which step it was waiting on, or on a second signal.
 */
export function onShutdown(stop: Stop, drainSeconds: number = DRAIN_SECONDS.app): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    const force = setTimeout(() => {
      process.stderr.write(`the drain after ${signal} outlasted its ${drainSeconds} s, waiting on ${stop.waitingOn?.() ?? 'its stop'}\n`);
      process.exit(1);
    }, drainSeconds * 1000);
    force.unref();
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        process.stderr.write(`shutdown after ${signal} failed: ${String(error)}\n`);
        process.exit(1);
      });
  };
  process.once('SIGINT', handle);
  process.once('SIGTERM', handle);
}
