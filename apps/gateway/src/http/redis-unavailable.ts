import { DomainError } from '@spark/errors';

/** A request the gateway cannot answer right now, and that will work again soon. */
export const serviceUnavailable = () => new DomainError('SERVICE_UNAVAILABLE', 'Please try again in a moment.');

/**
 * For a Redis call the gateway cannot answer without (a rate limit, a session check, an upload slot): a refusal is
 * passed on as it is, any other failure becomes SERVICE_UNAVAILABLE (503), never an internal error.
 */
export function redisUnavailable(error: unknown): never {
  if (error instanceof DomainError) throw error;
  throw serviceUnavailable();
}
