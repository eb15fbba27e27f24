import type { FastifyInstance } from 'fastify';
import { WithRouteConfig } from './route-config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @JsonBodyLimit(): the most bytes this route's JSON body may have. */
    jsonBodyLimit?: number;
  }
}

/** For a route whose contract allows more than the gateway's default JSON body (a Developer's Log post). */
export const JsonBodyLimit = (bytes: number) => WithRouteConfig({ jsonBodyLimit: bytes });

/** Gives each route that declares @JsonBodyLimit() its own limit: register before the routes are. */
export function applyJsonBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = route.config?.jsonBodyLimit;
    if (limit !== undefined) route.bodyLimit = limit;
  });
}
