import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { ErrorBody } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditTrail } from '../audit/audit-trail';
import { toErrorBody } from './error-body';
import { loggableUrl } from './secret-bearing-pages';

/**
 * A 403, or a refusal that tells the caller what they may not see (that an address is a team member's): an attempt
 * the admins should be able to see.
 */
const isAuditedRefusal = (body: ErrorBody) => body.statusCode === 403 || body.code === 'ACCOUNT_ROLE_DIFFERS';

/**
 * Answers a failed request with its error body: logged by its kind, and a refused attempt at an audited action
 * recorded as an audit event of its own (the trail logs its own failures). Nest's filter and Fastify's error handler
 * (for what fails before Nest, a hook that checks the caller before reading a body) both answer so.
 */
export function answerFailure(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  { logger, auditTrail }: { logger: Logger; auditTrail: AuditTrail },
) {
  const body = toErrorBody(error, request.id);
  // A 503 names a service that is down or slow: expected under failure, and logged by its cause.
  if (body.statusCode === 503) logger.warn({ code: body.code, service: body.service, url: loggableUrl(request.url) }, 'service unavailable');
  else if (body.statusCode >= 500) logger.error({ err: error, url: loggableUrl(request.url) }, 'request failed');
  if (isAuditedRefusal(body)) void auditTrail.recordRefusal(request);
  if (body.retryAfterSeconds) void reply.header('retry-after', String(body.retryAfterSeconds));
  void reply.status(body.statusCode).send(body);
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly answering: { logger: Logger; auditTrail: AuditTrail };

  constructor(logger: Logger, auditTrail: AuditTrail) {
    this.answering = { logger, auditTrail };
  }

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerFailure(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.answering);
  }
}
