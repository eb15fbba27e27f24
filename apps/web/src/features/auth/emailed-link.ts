/** What an e-mailed sign-in link carries to /magic-link-auth. */
export interface EmailedLink {
  token: string | null;
  next: string | null;
  approved: boolean;
}

/**
 * The token travels in the fragment; links sent before it moved there carry it in the query, and
 * keep working. `next` and `approved` are query parameters.
 */
export function readEmailedLink(search: string, hash: string): EmailedLink {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  return { token: fragment.get('token') ?? query.get('token'), next: query.get('next'), approved: query.get('approved') === 'true' };
}

/** The query without the token, so the address bar and the history keep nothing that signs in. */
export function searchWithoutToken(search: string): string {
  const query = new URLSearchParams(search);
  query.delete('token');
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}
