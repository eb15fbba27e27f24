import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, type Observable } from 'rxjs';
import type { AuditTrail } from './audit-trail';

/** The gateway's AuditTrail, by a token of its own: the trail's module needs @Audited(), which needs this file. */
export const AUDIT_TRAIL = Symbol('AuditTrail');

/** Records an audited route's success once its handler answered, before the answer leaves. @Audited() puts it on the route. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(@Inject(AUDIT_TRAIL) private readonly trail: AuditTrail) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      concatMap(async (answer: unknown) => {
        await this.trail.recordSuccess(request, answer);
        return answer;
      }),
    );
  }
}
