import { DomainError } from '@spark/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUploadRoute } from './upload-route';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Mail clients unsubscribe in one click by POSTing `List-Unsubscribe=One-Click` as a form (RFC 8058) from their
 * own servers: that one route takes a form body, which it ignores (the token is in the address).
 */
export const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/reminders/unsubscribe';
const FORM = 'application/x-www-form-urlencoded';
const takesForm = (request: FastifyRequest) => request.url.split('?')[0] === ONE_CLICK_UNSUBSCRIBE_PATH;

const hasBody = (request: FastifyRequest) => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/**
 * Whether a browser sent this request on behalf of another site. `Sec-Fetch-Site` cannot be set
 * by a page, so it decides when present; older browsers and plain-http hosts send only `Origin`.
 * A client that sends neither is not a browser acting for a site (curl, the tests, a server).
 */
export function isCrossSite(headers: FastifyRequest['headers'], publicOrigin: string): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  return headers.origin !== undefined && headers.origin !== publicOrigin;
}

/**
 * Every request that changes something must come from our own pages and carry JSON (multipart on
 * the upload routes): an HTML form on another site can send neither an allowed `Origin` nor a JSON
 * content type, so it can no longer sign a browser into someone else's account or act for it.
 */
export function registerStateChangingRequestChecks(fastify: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  fastify.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    if (isCrossSite(request.headers, publicOrigin)) {
      return done(new DomainError('FORBIDDEN', 'This request came from another site, so it was refused. Open Spark itself and try again.'));
    }
    const type = mediaType(request.headers['content-type']);
    const upload = isUploadRoute(request);
    const allowed = type === 'application/json' || (upload && type === 'multipart/form-data') || (type === FORM && takesForm(request));
    if (hasBody(request) && !allowed) {
      const expected = upload ? 'Send the file as multipart/form-data.' : 'Send this request as JSON (Content-Type: application/json).';
      return done(new DomainError('UNSUPPORTED_MEDIA_TYPE', expected));
    }
    done();
  });
}
