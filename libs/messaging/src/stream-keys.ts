/** Redis key names of the transport; see docs/messaging.md. */
export const DEFAULT_PREFIX = 'spark';

/** The stream a service consumes; its consumer group carries the service's name. */
export function requestStreamKey(prefix: string, service: string): string {
  return `${prefix}:svc:${service}`;
}

/**
 * The list one client instance reads its replies from, under its app's name: an app's Redis user may read its own
 * app's lists and only push to the others' (deploy/redis/users.acl).
 */
export function replyListKey(prefix: string, app: string, clientId: string): string {
  return `${prefix}:reply:${app}:${clientId}`;
}

const APP_AND_CLIENT_ID = /^[a-z][a-z0-9-]*:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `key` is a client's reply list under `prefix`: a server pushes answers nowhere else. */
export function isReplyListKey(prefix: string, key: string): boolean {
  const start = `${prefix}:reply:`;
  return key.startsWith(start) && APP_AND_CLIENT_ID.test(key.slice(start.length));
}
