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
