import { QUEUE_BOARD_PATH } from '@spark/contracts';

/**
 * Pages whose address carries a secret (the magic link's token, the account deletion and reminder unsubscribe
 * links' tokens, the queue dashboard's ticket) in its query or fragment.
 */
export const SECRET_BEARING_PAGES = new Set(['/magic-link-auth', '/account/delete', '/reminders/off', QUEUE_BOARD_PATH]);

export const pathOf = (url: string) => url.split(/[?#]/)[0] ?? url;

// What a coach or admin types to search a list, or the actor an admin filters the audit log by, is often a client's
// address or name, which account erasure cannot take back out of the logs.
const typedPerson = /([?&](?:search|actor)=)[^&#]*/gi;

/**
 * The URL as the request log shows it: a secret-bearing page without its query, a list's search and the audit log's
 * actor filter without what was typed. Elsewhere the logger itself removes the values of `token` and `code`
 * parameters (libs/logging).
 */
export const loggableUrl = (url: string) => (SECRET_BEARING_PAGES.has(pathOf(url)) ? pathOf(url) : url.replace(typedPerson, '$1[redacted]'));
