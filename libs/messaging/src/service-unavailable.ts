import { DomainError } from '@spark/errors';

/** The target service did not answer before the caller's deadline (or is not running at all). */
export class ServiceUnavailableError extends DomainError {
  constructor(service: string, timeoutMs: number) {
    super('SERVICE_UNAVAILABLE', `${service}-service did not answer within ${timeoutMs} ms`, {
      service: `${service}-service`,
    });
    this.name = 'ServiceUnavailableError';
  }
}
