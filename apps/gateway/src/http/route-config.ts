import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyContextConfig } from 'fastify';

/**
 * Adds to a route's Fastify config instead of replacing it, as Nest's own @RouteConfig() does, so
 * several decorators (an upload route that is also audited) can each declare their part.
 */
export const WithRouteConfig =
  (config: FastifyContextConfig): MethodDecorator =>
  (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as FastifyContextConfig;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...config }, handler);
    return descriptor;
  };
