/**
 * The body of a data-modifying CTE that deletes a few of `table`'s rows that expired a day or more ago, never waiting
 * for a row another statement holds. Sign-in links and refresh tokens are useless once expired (and a link holds the
 * address it went to): each new link or renewal removes up to two, more than it adds, so the table keeps only live
 * rows and about a day's expired ones, without a scheduled job. The day leaves anything still reading one at its
 * expiry (a renewal, a link's page) finding it.
 */
export const expiredRowsSql = (table: 'auth.magic_links' | 'auth.refresh_tokens') =>
  `DELETE FROM ${table} WHERE id IN (
     SELECT id FROM ${table} WHERE expires_at < now() - interval '1 day' LIMIT 2 FOR UPDATE SKIP LOCKED)`;
