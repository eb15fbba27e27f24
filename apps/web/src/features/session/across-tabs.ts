import { withBrowserLock } from '../../lib/browser-lock';

/**
 * Runs `work` while no other tab of this browser renews or replaces the session. The tabs share one refresh cookie, and
 * an answer that sets it must not land after another's: a refresh token sent twice revokes its whole session, and a
 * renewal answered after a sign-in would put back the cookie the sign-in replaced.
 */
export const acrossTabs = <T>(work: () => Promise<T>, options: { waitAtMostMs?: number } = {}): Promise<T> =>
  withBrowserLock('spark-session-refresh', work, options);
