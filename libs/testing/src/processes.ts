import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Kills every process still running (SIGKILL) and waits until each has exited: a test that only sends the signal
 * leaves the child's handle and pipes open in the Jest worker until the child is reaped.
 */
export async function killAndWait(children: Iterable<ChildProcess | undefined>): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      // Never started (a failed spawn has no pid), or gone already: nothing to wait for.
      if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }),
  );
}
