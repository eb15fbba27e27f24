import { QUEUE_BOARD_PATH } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { Logger } from '@spark/logging';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { toErrorBody } from '../http/error-body';
import type { QueueBoardApp } from './queue-board-app';
import type { QueueBoardPasses } from './queue-board-passes';

// The board's HTML sets <base href> so its relative asset URLs resolve below QUEUE_BOARD_PATH; the
// site-wide policy forbids <base> (base-uri 'none'). Only these pages allow it, and only to our origin.
const allowSameOriginBase = (policy: string) => policy.replace("base-uri 'none'", "base-uri 'self'");

// The board's page links Google's font stylesheet; the policy would block it, and it would tell Google
// who opens our admin pages. Without it the board uses the system fonts.
const withoutThirdPartyFonts = (html: string) => html.replace(/<link [^>]*href="https:\/\/fonts\.googleapis\.com[^>]*>/g, '');

/**
 * The path and query the board is handed, as a URL parser reads the request's target: a fragment, a dot segment or a
 * backslash in the raw target is resolved here, so every check below and the board itself read the same path (the
 * router takes a `#` for the start of the query; a check on the raw target would read a path the board never routes).
 */
const boardTarget = (request: FastifyRequest) => {
  // A target no parser reads is no page and no allowed write; the router refuses such targets before this anyway.
  const { pathname, search } = URL.parse(request.url, 'http://queue-board.invalid') ?? { pathname: '', search: '' };
  return { path: pathname, url: `${pathname}${search}` };
};

/** Pages of the board a person opens (its own client routes), as opposed to its API and its assets. */
const isPage = (request: FastifyRequest) => {
  const { path } = boardTarget(request);
  return request.method === 'GET' && !path.startsWith(`${QUEUE_BOARD_PATH}/api/`) && !path.startsWith(`${QUEUE_BOARD_PATH}/static/`);
};

/**
 * The board's one write an admin may make: retrying a failed job, or all failed jobs of a queue. Editing a job's
 * data would let an admin send someone's sign-in link to their own address; adding, promoting, cleaning,
 * emptying or pausing change what the product does and are operator work on Redis, not a dashboard click.
 */
const retryRoute = new RegExp(`^${QUEUE_BOARD_PATH}/api/queues/[^/]+/(?:[^/]+/retry|retry/failed)$`);
const isAllowedWrite = (request: FastifyRequest) => request.method === 'PUT' && retryRoute.test(boardTarget(request).path);
const readOnly = () => new DomainError('FORBIDDEN', 'The queue dashboard shows jobs and retries failed ones; it does not change, add, move or delete them.');

const ticketOf = (request: FastifyRequest) => {
  const { ticket } = (request.query ?? {}) as { ticket?: unknown };
  return request.method === 'GET' && typeof ticket === 'string' ? ticket : undefined;
};

/**
 * Every board request, pages, assets and API alike, passes QueueBoardPasses.admit. A page opened
 * with a ticket sets the board's cookie and reloads without it, so the address bar keeps no secret.
 * A page opened without a pass goes to sign-in; the board's API and assets answer the error itself.
 */
const admitAdmins = (passes: QueueBoardPasses) => async (request: FastifyRequest, reply: FastifyReply) => {
  const ticket = ticketOf(request);
  if (ticket !== undefined && (await passes.redeem(ticket, reply))) return reply.redirect(QUEUE_BOARD_PATH, 303);
  try {
    await passes.admit(request);
    if (request.method !== 'GET' && request.method !== 'HEAD' && !isAllowedWrite(request)) throw readOnly();
  } catch (error) {
    const body = toErrorBody(error, request.id);
    if (body.statusCode === 401 && isPage(request)) return reply.redirect('/signin', 303);
    return reply.status(body.statusCode).send(body);
  }
};

/** The board's answer headers the gateway passes on; its own framing (length, encoding, connection) it sets itself. */
const FORWARDED_ANSWER_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location'];

/**
 * Bull Board at QUEUE_BOARD_PATH, for admins only: every queue of QUEUES, their failed jobs retryable. The
 * gateway admits each request (its admin check, cross-site check and security headers) and hands it to the
 * board's own Fastify instance, loaded with the first admitted request: a gateway no admin opened the board on
 * never loads Bull Board or BullMQ. Its write actions are PUT/POST, so the site-wide cross-site check
 * (registerStateChangingRequestChecks) covers them too. Returns what closes its queue connections.
 */
export async function registerQueueBoard(
  fastify: FastifyInstance,
  options: { passes: QueueBoardPasses; redis: Redis; busPrefix: string; logger: Logger },
): Promise<() => Promise<void>> {
  let loaded: Promise<QueueBoardApp> | undefined;
  const board = () =>
    (loaded ??= import('./queue-board-app')
      .then(({ loadQueueBoardApp }) => loadQueueBoardApp(options))
      .catch((error: unknown) => {
        // Tried again with the next request.
        loaded = undefined;
        throw error;
      }));
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const { app } = await board();
    const answer = await app.inject({
      method: request.method as 'GET',
      url: boardTarget(request).url,
      headers: Object.fromEntries(['accept', 'content-type'].flatMap((name) => (request.headers[name] ? [[name, request.headers[name]]] : []))),
      ...(request.body === undefined ? {} : { payload: request.body as object }),
    });
    for (const name of FORWARDED_ANSWER_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) void reply.header(name, value);
    }
    const html = String(answer.headers['content-type']).startsWith('text/html');
    return reply.status(answer.statusCode).send(html ? withoutThirdPartyFonts(answer.payload) : answer.rawPayload);
  };
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', admitAdmins(options.passes));
    scope.addHook('onSend', (_request, reply, payload, done) => {
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string') void reply.header('content-security-policy', allowSameOriginBase(policy));
      done(null, payload);
    });
    scope.all(QUEUE_BOARD_PATH, forward);
    scope.all(`${QUEUE_BOARD_PATH}/*`, forward);
  });
  return async () => {
    await (await loaded?.catch(() => undefined))?.close();
  };
}
