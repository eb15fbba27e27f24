import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by @UploadRoute(): the route takes a multipart file upload. */
    uploadRoute?: boolean;
  }
}

/** The largest file any upload route takes (an investor deck); each route reads its whole file into memory. */
export const UPLOAD_MAX_FILE_BYTES = 30 * 1024 * 1024;
/** Room for the multipart boundaries and small fields around a file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const isUploadRoute = (request: FastifyRequest) => request.routeOptions.config.uploadRoute === true;
