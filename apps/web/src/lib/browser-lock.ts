/**
 * Runs `work` holding the Web Lock `name`, shared by every tab of this browser (and the installed app). Without Web
 * Locks, `work` runs at once: the caller's own checks are all there is. With `waitAtMostMs`, `work` runs without the
 * lock once that wait is over, for a person waiting on a click who should not wait on another tab stuck on a bad
 * connection.
 */
export async function withBrowserLock<T>(name: string, work: () => Promise<T>, { waitAtMostMs }: { waitAtMostMs?: number } = {}): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return work();
  const signal = waitAtMostMs === undefined ? undefined : AbortSignal.timeout(waitAtMostMs);
  try {
    // The lock's promise settles as `work`'s does (the DOM typings leave it wrapped).
    return (await locks.request(name, signal ? { signal } : {}, work)) as T;
  } catch (error) {
    if (signal?.aborted && error === signal.reason) return work();
    throw error;
  }
}
