import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestScope {
  requestId: string;
  sent: number;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Runs a handler of request `requestId`: requests it sends on get ids derived from it (see `outgoingRequestId`). */
export function runInRequestScope<T>(requestId: string, handler: () => T): T {
  return scope.run({ requestId, sent: 0 }, handler);
}

/**
 * The id of a request about to be sent. Inside a handler it is derived from the handler's own request id and
 * the order of sending, so a handler run again after a crash sends the same ids, and the services it calls
 * recognise the repeat instead of acting twice. Elsewhere it is random.
 */
export function outgoingRequestId(): string {
  const current = scope.getStore();
  if (!current) return randomUUID();
  current.sent += 1;
  return `${current.requestId}/${current.sent}`;
}
