import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, from, type Observable } from 'rxjs';
import type { AuditTrail } from './audit-trail';

/** The gateway's AuditTrail, by a token of its own: the trail's module needs @Audited(), which needs this file. */
export const AUDIT_TRAIL = Symbol('AuditTrail');

/**
 * Admits an audited route's request within the person's hourly actions, and records its success once its handler
 * answered, before the answer leaves. @Audited() puts it on the route.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(@Inject(AUDIT_TRAIL) private readonly trail: AuditTrail) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return from(this.trail.admit(request)).pipe(
      concatMap(() => next.handle()),
      concatMap(async (answer: unknown) => {
        await this.trail.recordSuccess(request, answer);
        return answer;
      }),
    );
  }
}
