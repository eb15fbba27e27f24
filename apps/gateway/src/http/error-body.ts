import { HttpException } from '@nestjs/common';
import { type ErrorBody, type ErrorCode, errorCodes, httpStatusOf } from '@spark/contracts';
import { DomainError } from '@spark/errors';

const codeForStatus = (status: number): ErrorCode =>
  (Object.entries(errorCodes).find(([, value]) => value === status)?.[0] as ErrorCode | undefined) ?? 'INTERNAL';

/** Fastify's own errors (body too large, malformed JSON …) carry a statusCode. */
const isFastifyError = (error: unknown): error is Error & { statusCode: number; code?: string } =>
  error instanceof Error && typeof (error as { statusCode?: unknown }).statusCode === 'number';

/**
 * The one mapping from anything thrown to the JSON every non-2xx answer carries. A 500 shows only
 * the correlation id; the log has the rest.
 */
export function toErrorBody(error: unknown, correlationId: string): ErrorBody {
  if (error instanceof DomainError) {
    return {
      statusCode: error.status,
      code: error.code,
      message: error.message,
      correlationId,
      ...error.details,
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { statusCode: status, code: codeForStatus(status), message: status >= 500 ? 'Internal error' : error.message, correlationId };
  }
  if (isFastifyError(error) && error.statusCode < 500) {
    const code = codeForStatus(error.statusCode);
    return { statusCode: error.statusCode, code, message: code === 'PAYLOAD_TOO_LARGE' ? 'The request body is too large.' : error.message, correlationId };
  }
  return { statusCode: httpStatusOf('INTERNAL'), code: 'INTERNAL', message: `Something went wrong (reference ${correlationId}).`, correlationId };
}
