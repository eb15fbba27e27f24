import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, type Observable } from 'rxjs';
import type { AuditTrail } from './audit-trail';
import { auditedRouteOf } from './audited.decorator';

/** Records an audited route's success once its handler answered, before the answer leaves. */
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly trail: AuditTrail) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!auditedRouteOf(request)) return next.handle();
    return next.handle().pipe(
      concatMap(async (answer: unknown) => {
        await this.trail.recordSuccess(request, answer);
        return answer;
      }),
    );
  }
}
