import type { FastifyRequest } from 'fastify';
import { WithRouteConfig } from './route-config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @UploadRoute(): the route takes a multipart file upload. */
    uploadRoute?: boolean;
  }
}

/** Marks a route that takes a multipart file upload; every other route takes JSON only. */
export const UploadRoute = () => WithRouteConfig({ uploadRoute: true });

export const isUploadRoute = (request: FastifyRequest) => request.routeOptions.config.uploadRoute === true;
