import { type ArgumentsHost, Catch } from '@nestjs/common';
import { BaseRpcExceptionFilter } from '@nestjs/microservices';
import { DomainError } from '@spark/errors';
import { DeadlinePassed, isDatabaseUnavailable, isStatementTimeout } from '@spark/persistence';
import type { Observable } from 'rxjs';

/**
 * SERVICE_UNAVAILABLE (503 at the gateway) for a failure that means "not done, try again": PostgreSQL is away, or
 * the request's time ran out and its work was cut off. Undefined for any other error.
 */
export function notDoneError(error: unknown, service: string): DomainError | undefined {
  const details = { service: `${service}-service` };
  if (isDatabaseUnavailable(error)) {
    return new DomainError('SERVICE_UNAVAILABLE', 'The service cannot reach its database right now. Please try again shortly.', details);
  }
  if (error instanceof DeadlinePassed || isStatementTimeout(error)) {
    return new DomainError('SERVICE_UNAVAILABLE', 'The service could not finish in time; nothing was changed. Please try again.', details);
  }
  return undefined;
}

/** Answers a handler's "not done" failure as SERVICE_UNAVAILABLE instead of INTERNAL. */
@Catch()
export class NotDoneFilter extends BaseRpcExceptionFilter {
  constructor(private readonly service: string) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): Observable<unknown> {
    return super.catch(notDoneError(exception, this.service) ?? exception, host);
  }
}
