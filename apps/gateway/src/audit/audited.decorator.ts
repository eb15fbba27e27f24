import { applyDecorators, UseInterceptors } from '@nestjs/common';
import type { AuditAction, AuditTargetType } from '@spark/contracts';
import type { FastifyRequest } from 'fastify';
import { WithRouteConfig } from '../http/route-config';
import { AuditInterceptor } from './audit.interceptor';

type Path = readonly string[];

/** What an audited route acts on, and where its event finds the target's id and label. */
export interface AuditedTarget {
  type: AuditTargetType;
  /**
   * A route parameter, or a path in the handler's answer (a refused call has none: its id is null).
   * Absent for a target there is only one of (the queue dashboard).
   */
  id?: { param: string } | { answer: Path };
  /** What a reader recognises the target by, read from the answer or the request body. */
  label?: { answer: Path } | { body: Path };
  /** Body fields kept as the event's details (short values only: never notes or messages). */
  details?: readonly string[];
}

export interface AuditedRoute extends AuditedTarget {
  action: AuditAction;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auditedRoute?: AuditedRoute;
  }
}

/**
 * Records every call of the route that succeeds, and every one answered 403, in the audit log
 * (`auth.audit_events`): who, what, which target, when, from which IP. The route's Fastify config
 * carries it, so the exception filter sees it too when the guard refused the call before any handler ran.
 * Only audited routes run the interceptor: Nest runs none on a route that has none.
 */
export const Audited = (action: AuditAction, target: AuditedTarget) =>
  applyDecorators(WithRouteConfig({ auditedRoute: { action, ...target } }), UseInterceptors(AuditInterceptor));

/** The route's audit declaration, or undefined when the route is not audited. */
export const auditedRouteOf = (request: FastifyRequest): AuditedRoute | undefined => request.routeOptions.config?.auditedRoute;
