import { dirname } from 'node:path';
import { createBullBoard } from '@bull-board/api';
import type { HTTPStatus } from '@bull-board/api/typings/app';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { QUEUE_BOARD_PATH, QUEUES } from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { DomainError } from '@spark/errors';
import { currentCorrelationId, type Logger, newCorrelationId } from '@spark/logging';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { toErrorBody } from '../http/error-body';
import type { QueueBoardPasses } from './queue-board-passes';

// The board's HTML sets <base href> so its relative asset URLs resolve below QUEUE_BOARD_PATH; the
// site-wide policy forbids <base> (base-uri 'none'). Only these pages allow it, and only to our origin.
const allowSameOriginBase = (policy: string) => policy.replace("base-uri 'none'", "base-uri 'self'");

// The board's page links Google's font stylesheet; the policy would block it, and it would tell Google
// who opens our admin pages. Without it the board uses the system fonts.
const withoutThirdPartyFonts = (html: string) => html.replace(/<link [^>]*href="https:\/\/fonts\.googleapis\.com[^>]*>/g, '');

/** Pages of the board a person opens (its own client routes), as opposed to its API and its assets. */
const isPage = (request: FastifyRequest) => {
  const path = request.url.split('?')[0] ?? '';
  return request.method === 'GET' && !path.startsWith(`${QUEUE_BOARD_PATH}/api/`) && !path.startsWith(`${QUEUE_BOARD_PATH}/static/`);
};

/**
 * The board's one write an admin may make: retrying a failed job, or all failed jobs of a queue. Editing a job's
 * data would let an admin send someone's sign-in link to their own address; adding, promoting, cleaning,
 * emptying or pausing change what the product does and are operator work on Redis, not a dashboard click.
 */
const retryRoute = new RegExp(`^${QUEUE_BOARD_PATH}/api/queues/[^/]+/(?:[^/]+/retry|retry/failed)$`);
const isAllowedWrite = (request: FastifyRequest) => request.method === 'PUT' && retryRoute.test(request.url.split('?')[0] ?? '');
const readOnly = () => new DomainError('FORBIDDEN', 'The queue dashboard shows jobs and retries failed ones; it does not change, add, move or delete them.');

/**
 * Job fields that carry a secret (a magic-link job's sign-in link and code, a data export's signed download
 * link, which opens the client's whole archive): shown as hidden on the board.
 */
const SECRET_JOB_FIELDS = new Set(['link', 'code', 'downloadUrl']);
const hideSecrets = (data: unknown): unknown =>
  data && typeof data === 'object' && !Array.isArray(data)
    ? Object.fromEntries(Object.entries(data).map(([key, value]) => [key, SECRET_JOB_FIELDS.has(key) ? '(hidden)' : value]))
    : data;

const ticketOf = (request: FastifyRequest) => {
  const { ticket } = (request.query ?? {}) as { ticket?: unknown };
  return request.method === 'GET' && typeof ticket === 'string' ? ticket : undefined;
};

/**
 * Every board request, pages, assets and API alike, passes QueueBoardPasses.admit. A page opened
 * with a ticket sets the board's cookie and reloads without it, so the address bar keeps no secret.
 * Answers are sent here rather than thrown: the board's plugin has its own error handler, which
 * would turn our 401/403 into its 500.
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

/**
 * Bull Board at QUEUE_BOARD_PATH, for admins only: every queue of QUEUES, their failed jobs
 * retryable. Its write actions are PUT/POST, so the site-wide cross-site check
 * (registerStateChangingRequestChecks) covers them too. Returns what closes its queue connections.
 */
export async function registerQueueBoard(
  fastify: FastifyInstance,
  options: { passes: QueueBoardPasses; redis: Redis; busPrefix: string; logger: Logger },
): Promise<() => Promise<void>> {
  // A connection of its own: BullMQ defines its scripts on the connection it is given, and ioredis copies every
  // defined script into each MULTI, which would slow every rate-limit check on the gateway's shared connection.
  const connection = options.redis.duplicate();
  const jobQueues = new JobQueues(connection, options.busPrefix);
  const serverAdapter = new FastifyAdapter().setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: Object.values(QUEUES).map((name) => {
      const adapter = new BullMQAdapter(jobQueues.queue(name));
      adapter.setFormatter('data', hideSecrets);
      return adapter;
    }),
    serverAdapter,
    // Named here: the board finds its UI with an eval'd require.resolve otherwise.
    options: { uiBasePath: dirname(require.resolve('@bull-board/ui/package.json')), uiConfig: { boardTitle: 'Spark queues' } },
  });
  // The board's plugin answers every error of its routes, the gateway's own hooks' included (a
  // cross-site write's 403): the same JSON and statuses as everywhere else, not the board's 500.
  serverAdapter.setErrorHandler((error) => {
    const body = toErrorBody(error, currentCorrelationId() ?? newCorrelationId());
    if (body.statusCode >= 500) options.logger.error({ err: error }, 'queue board request failed');
    // The board's type lists only the statuses it answers itself; its Fastify adapter sends any (401, 429, 503 …).
    return { status: body.statusCode as HTTPStatus, body };
  });
  await fastify.register(async (board) => {
    board.addHook('onRequest', admitAdmins(options.passes));
    board.addHook('onSend', (_request, reply, payload, done) => {
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string') void reply.header('content-security-policy', allowSameOriginBase(policy));
      const html = typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html');
      done(null, html ? withoutThirdPartyFonts(payload) : payload);
    });
    await board.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
  });
  return async () => {
    await jobQueues.close();
    connection.disconnect();
  };
}
