import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Logger } from '@spark/logging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditTrail } from '../audit/audit-trail';
import { toErrorBody } from './error-body';
import { loggableUrl } from './secret-bearing-pages';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly auditTrail: AuditTrail,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const body = toErrorBody(error, request.id);
    // A 503 names a service that is down or slow: expected under failure, and logged by its cause.
    if (body.statusCode === 503) this.logger.warn({ code: body.code, service: body.service, url: loggableUrl(request.url) }, 'service unavailable');
    else if (body.statusCode >= 500) this.logger.error({ err: error, url: loggableUrl(request.url) }, 'request failed');
    // A refused attempt at an audited action is itself worth an audit event (the trail logs its own failures).
    if (body.statusCode === 403) void this.auditTrail.recordRefusal(request);
    const reply = http.getResponse<FastifyReply>();
    if (body.retryAfterSeconds) void reply.header('retry-after', String(body.retryAfterSeconds));
    void reply.status(body.statusCode).send(body);
  }
}
