import { type ArgumentsHost, Catch } from '@nestjs/common';
import { BaseRpcExceptionFilter } from '@nestjs/microservices';
import { DomainError } from '@spark/messaging';
import { isDatabaseUnavailable } from '@spark/persistence';
import type { Observable } from 'rxjs';

export const databaseUnavailableError = (service: string) =>
  new DomainError('SERVICE_UNAVAILABLE', 'The service cannot reach its database right now. Please try again shortly.', {
    service: `${service}-service`,
  });

/** A handler that failed because PostgreSQL is away answers SERVICE_UNAVAILABLE (503 at the gateway), not INTERNAL. */
@Catch()
export class DatabaseUnavailableFilter extends BaseRpcExceptionFilter {
  constructor(private readonly service: string) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): Observable<unknown> {
    if (!isDatabaseUnavailable(exception)) return super.catch(exception, host);
    return super.catch(databaseUnavailableError(this.service), host);
  }
}
