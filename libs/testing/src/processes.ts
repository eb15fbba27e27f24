import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Sends every process still running `signal` (SIGKILL unless told) and waits until each has exited: a test that only
 * sends the signal leaves the child's handle and pipes open in the Jest worker until the child is reaped, and with
 * SIGTERM what the child does on its way out is done by then.
 */
export async function killAndWait(children: Iterable<ChildProcess | undefined>, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      // Never started (a failed spawn has no pid), or gone already: nothing to wait for.
      if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    }),
  );
}
