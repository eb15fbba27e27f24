import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { gatewayEnv, loadConfig } from '@spark/config';
import { createLogger, PinoNestLogger, runWithCorrelationId } from '@spark/logging';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
import { onShutdown, runMain } from '@spark/runtime';
import { Redis } from 'ioredis';
import { registerOpenApi } from './docs/openapi';
import { GatewayModule } from './gateway.module';
import { toErrorBody } from './http/error-body';
import { registerMetrics } from './health/metrics';
import { registerSpa } from './web/spa';

/** JSON bodies are small forms; uploads get their own, larger limit on their own routes. */
const JSON_BODY_LIMIT = 16 * 1024;
const requestId = (header: unknown) => (typeof header === 'string' && /^[\w-]{8,64}$/.test(header) ? header : randomUUID());

export async function startGateway(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(gatewayEnv, env);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  const client = new RedisStreamsClient({ redisUrl: config.REDIS_URL, prefix: config.BUS_PREFIX, timeoutMs: config.BUS_TIMEOUT_MS, logger });
  await client.connect();
  const adapter = new FastifyAdapter({
    bodyLimit: JSON_BODY_LIMIT,
    // Only configured proxies' X-Forwarded-For is believed; by default the socket's peer is the client.
    trustProxy: config.TRUST_PROXY,
    genReqId: (request: IncomingMessage) => requestId(request.headers['x-request-id']),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register({ config, logger, bus: new ServiceBus(client), redis }),
    adapter,
    { logger: new PinoNestLogger(logger) },
  );
  const fastify = app.getHttpAdapter().getInstance();
  // Everything below a request — logs, outgoing bus messages — carries its correlation id.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    runWithCorrelationId(request.id, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logger.info({ correlationId: request.id, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
  // Errors Fastify raises before Nest sees the request (body too large, malformed JSON).
  fastify.setErrorHandler((error, request, reply) => {
    const body = toErrorBody(error, request.id);
    if (body.statusCode >= 500) logger.error({ err: error }, 'request failed');
    void reply.status(body.statusCode).send(body);
  });
  registerMetrics(fastify);
  // Before Nest registers its routes (at listen), so the document's onRoute hook sees them all.
  registerOpenApi(fastify, '0.1.0');
  await registerSpa(fastify, config.WEB_DIST, config.PUBLIC_URL);
  await app.listen(config.PORT, config.HOST);
  logger.info({ port: config.PORT }, 'ready');
  return {
    url: await app.getUrl(),
    async stop() {
      await app.close();
      await client.close();
      redis.disconnect();
    },
  };
}

if (require.main === module) runMain('gateway', async () => onShutdown((await startGateway()).stop));
