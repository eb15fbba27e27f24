/**
 * The body of a data-modifying CTE that deletes a few of `table`'s rows long past their expiry, when `onlyIf` holds,
 * never waiting for a row another statement holds. Sign-in links and refresh tokens are useless once expired (and a
 * link holds the address it went to), so each new link or renewal removes more of them than it adds, and the table
 * keeps little more than its live rows without a scheduled job. The margin leaves anything still reading one at its
 * expiry (a renewal, a link's page) finding it.
 */
export const expiredRowsSql = (table: 'auth.magic_links' | 'auth.refresh_tokens', onlyIf = 'true') =>
  `DELETE FROM ${table} WHERE ${onlyIf} AND id IN (
     SELECT id FROM ${table} WHERE expires_at < now() - interval '1 day' LIMIT 2 FOR UPDATE SKIP LOCKED)`;
