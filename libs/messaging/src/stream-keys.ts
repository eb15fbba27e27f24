/** Redis key names of the transport; see docs/messaging.md. */
export const DEFAULT_PREFIX = 'spark';

/** The stream a service consumes; its consumer group carries the service's name. */
export function requestStreamKey(prefix: string, service: string): string {
  return `${prefix}:svc:${service}`;
}

/** The list one client instance reads its replies from. */
export function replyListKey(prefix: string, clientId: string): string {
  return `${prefix}:reply:${clientId}`;
}

const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `key` is a client's reply list under `prefix`: a server pushes answers nowhere else. */
export function isReplyListKey(prefix: string, key: string): boolean {
  const start = replyListKey(prefix, '');
  return key.startsWith(start) && CLIENT_ID.test(key.slice(start.length));
}
