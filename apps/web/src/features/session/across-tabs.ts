/**
 * Runs `work` while no other tab of this browser renews or replaces the session. The tabs share one refresh cookie, and
 * an answer that sets it must not land after another's: a refresh token sent twice revokes its whole session, and a
 * renewal answered after a sign-in would put back the cookie the sign-in replaced.
 */
export async function acrossTabs<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // The lock's promise settles as `work`'s does (the DOM typings leave it wrapped).
  return locks ? ((await locks.request('spark-session-refresh', work)) as T) : work();
}
