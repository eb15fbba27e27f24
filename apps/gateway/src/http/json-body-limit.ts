import { applyDecorators } from '@nestjs/common';
import type { UserRole } from '@spark/contracts';
import type { FastifyInstance, preParsingAsyncHookHandler } from 'fastify';
import { type AccessTokenGuard, roleRefused } from '../auth/access-token.guard';
import { Roles } from '../auth/auth.decorators';
import { WithRouteConfig } from './route-config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @JsonBodyLimit(): the most bytes this route's JSON body may have, and the roles that may send one. */
    jsonBodyLimit?: { bytes: number; roles: readonly UserRole[] };
  }
}

/**
 * For a route whose contract allows more than the gateway's default JSON body (a Developer's Log post): its limit,
 * and the roles that may call it, which stand for @Roles() too, so the two cannot drift apart.
 */
export const JsonBodyLimit = (bytes: number, ...roles: [UserRole, ...UserRole[]]) =>
  applyDecorators(WithRouteConfig({ jsonBodyLimit: { bytes, roles } }), Roles(...roles));

/**
 * Gives each route that declares @JsonBodyLimit() its own limit: register before the routes are. Fastify reads a body
 * before Nest's guard runs, so such a route first checks the caller as the guard will: nobody without a current
 * access token of a role the route takes has the larger body read.
 */
export function applyJsonBodyLimits(fastify: FastifyInstance, guard: Pick<AccessTokenGuard, 'authenticate'>): void {
  fastify.addHook('onRoute', (route) => {
    const limit = route.config?.jsonBodyLimit;
    if (limit === undefined) return;
    const mayCallFirst: preParsingAsyncHookHandler = async (request) => {
      const { role } = await guard.authenticate(request);
      if (!limit.roles.includes(role)) throw roleRefused();
    };
    route.bodyLimit = limit.bytes;
    route.preParsing = [...[route.preParsing ?? []].flat(), mayCallFirst];
  });
}
