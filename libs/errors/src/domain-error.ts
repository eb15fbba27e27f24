import { httpStatusOf, type ErrorCode, type FieldErrors } from '@spark/contracts';
import { RpcException } from '@nestjs/microservices';

export interface DomainErrorDetails {
  fieldErrors?: FieldErrors;
  service?: string;
  retryAfterSeconds?: number;
}

/**
 * An expected failure with a code from `errorCodes`, thrown by services, the gateway and the libraries alike. It
 * extends RpcException (an Error) so that Nest's default RPC exception filter hands `{ code, message, details }`
 * to the transport instead of replacing it with "Internal server error".
 */
export class DomainError extends RpcException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: DomainErrorDetails,
  ) {
    super(details ? { code, message, details } : { code, message });
    this.name = 'DomainError';
  }

  get status(): number {
    return httpStatusOf(this.code);
  }
}
