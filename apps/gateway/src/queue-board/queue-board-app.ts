import { dirname } from 'node:path';
import type { HTTPStatus } from '@bull-board/api/typings/app';
import { QUEUE_BOARD_PATH, QUEUES } from '@spark/contracts';
import { currentCorrelationId, type Logger, newCorrelationId } from '@spark/logging';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { toErrorBody } from '../http/error-body';

export interface QueueBoardApp {
  /** Answers requests the gateway has already admitted; it listens on no port. */
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Bull Board in a Fastify instance of its own, every queue of QUEUES as AdminQueueAdapter shows it. Bull Board, BullMQ and
 * their dependencies are loaded here, on the first request to the board, not when the gateway starts.
 */
export async function loadQueueBoardApp(options: { redis: Redis; busPrefix: string; logger: Logger }): Promise<QueueBoardApp> {
  const [{ createBullBoard }, { AdminQueueAdapter }, { FastifyAdapter }, { JobQueues }] = await Promise.all([
    import('@bull-board/api'),
    import('./admin-queue-adapter'),
    import('@bull-board/fastify'),
    import('@spark/jobs'),
  ]);
  // A connection of its own: BullMQ defines its scripts on the connection it is given, and ioredis copies every
  // defined script into each pipeline, which the shared connection's automatic pipelining makes for every batch.
  const connection = options.redis.duplicate();
  const jobQueues = new JobQueues(connection, options.busPrefix);
  const serverAdapter = new FastifyAdapter().setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: Object.values(QUEUES).map((name) => new AdminQueueAdapter(name, jobQueues.queue(name))),
    serverAdapter,
    // Named here: the board finds its UI with an eval'd require.resolve otherwise.
    options: { uiBasePath: dirname(require.resolve('@bull-board/ui/package.json')), uiConfig: { boardTitle: 'Spark queues' } },
  });
  // The board's plugin answers every error of its routes: the same JSON and statuses as everywhere else, not its 500.
  serverAdapter.setErrorHandler((error) => {
    const body = toErrorBody(error, currentCorrelationId() ?? newCorrelationId());
    if (body.statusCode >= 500) options.logger.error({ err: error }, 'queue board request failed');
    // The board's type lists only the statuses it answers itself; its Fastify adapter sends any (401, 429, 503 …).
    return { status: body.statusCode as HTTPStatus, body };
  });
  const app = Fastify();
  await app.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await jobQueues.close();
      connection.disconnect();
    },
  };
}
