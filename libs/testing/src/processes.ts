import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

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

/** Every line a child process writes to `output` (its stdout piped), as they arrive: a process's log, read by a test. */
export function linesOf(output: Readable | null): string[] {
  const lines: string[] = [];
  if (output) createInterface({ input: output }).on('line', (line) => lines.push(line));
  return lines;
}
