/**
 * Runs `work` while no other tab of this browser renews or replaces the session. The tabs share one refresh cookie, and
 * an answer that sets it must not land after another's: a refresh token sent twice revokes its whole session, and a
 * renewal answered after a sign-in would put back the cookie the sign-in replaced. With `waitAtMostMs`, `work` runs
 * without the lock once that wait is over: a person waiting on a click should not wait on another tab's renewal stuck
 * on a bad connection.
 */
export async function acrossTabs<T>(work: () => Promise<T>, { waitAtMostMs }: { waitAtMostMs?: number } = {}): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return work();
  const signal = waitAtMostMs === undefined ? undefined : AbortSignal.timeout(waitAtMostMs);
  try {
    // The lock's promise settles as `work`'s does (the DOM typings leave it wrapped).
    return (await locks.request('spark-session-refresh', signal ? { signal } : {}, work)) as T;
  } catch (error) {
    if (signal?.aborted && error === signal.reason) return work();
    throw error;
  }
}
