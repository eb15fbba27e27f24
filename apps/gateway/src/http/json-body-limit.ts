import type { FastifyInstance, preParsingAsyncHookHandler } from 'fastify';
import type { AccessTokenVerifier } from '../auth/access-token.guard';
import { WithRouteConfig } from './route-config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @JsonBodyLimit(): the most bytes this route's JSON body may have. */
    jsonBodyLimit?: number;
  }
}

/** For a signed-in route whose contract allows more than the gateway's default JSON body (a Developer's Log post). */
export const JsonBodyLimit = (bytes: number) => WithRouteConfig({ jsonBodyLimit: bytes });

/**
 * Gives each route that declares @JsonBodyLimit() its own limit: register before the routes are. Fastify reads a body
 * before Nest's guard runs, so such a route first checks the caller's access token: nobody without a valid one has
 * the larger body read.
 */
export function applyJsonBodyLimits(fastify: FastifyInstance, tokens: AccessTokenVerifier): void {
  const signedInFirst: preParsingAsyncHookHandler = async (request) => {
    await tokens.claimsOf(request.headers.authorization);
  };
  fastify.addHook('onRoute', (route) => {
    const limit = route.config?.jsonBodyLimit;
    if (limit === undefined) return;
    route.bodyLimit = limit;
    route.preParsing = [...[route.preParsing ?? []].flat(), signedInFirst];
  });
}
