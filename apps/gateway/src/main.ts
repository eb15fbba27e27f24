import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { assertSigningKeysFor, gatewayEnv, loadConfig } from '@spark/config';
import { createLogger, PinoNestLogger, runWithCorrelationId } from '@spark/logging';
import { RedisStreamsClient, ServiceBus } from '@spark/messaging';
import { onShutdown, runMain, startHealthServer, stopSteps } from '@spark/runtime';
import { Redis } from 'ioredis';
import { openApiPages } from './docs/openapi';
import { routeDecisions } from './auth/route-access';
import { gatewayControllers, GatewayModule } from './gateway.module';
import { gatewayMetrics, observeHttp } from './health/metrics';
import { AccessTokenGuard } from './auth/access-token.guard';
import type { AuditTrail } from './audit/audit-trail';
import { AUDIT_TRAIL } from './audit/audit.interceptor';
import { answerFailure } from './http/all-exceptions.filter';
import { applyJsonBodyLimits } from './http/json-body-limit';
import { loggableUrl } from './http/secret-bearing-pages';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStateChangingRequestChecks } from './http/state-changing-requests';
import { registerQueueBoard } from './queue-board/queue-board';
import { QueueBoardPasses } from './queue-board/queue-board-passes';
import { loadWebBuild, registerSpa } from './web/spa';

/** JSON bodies are small forms; uploads get their own, larger limit on their own routes, and so does a route that declares @JsonBodyLimit(). */
const JSON_BODY_LIMIT = 16 * 1024;
// Longer than the idle timeout of the load balancers in front (60 s on the common ones), so they close first.
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
// Bodies, queries and parameters are validated by their zod contracts (ZodBodyPipe), so no route declares a Fastify
// schema: without these, Fastify would load its schema compilers (Ajv, fast-json-stringify's) at start for nothing.
const noRouteSchemas = () => {
  throw new Error('Fastify route schemas are not compiled in the gateway: validate with a zod contract (ZodBodyPipe)');
};
/**
 * Nest's Fastify adapter, minus the error handler Nest sets when the app starts listening. The gateway sets its own
 * before any route exists, and a Fastify route keeps the handler in force when it was added, so Nest's would reach
 * no route; setting a second one only made Fastify warn at every start.
 */
class GatewayFastifyAdapter extends FastifyAdapter {
  override setErrorHandler(): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance();
  }
}
// A caller's X-Request-Id (an ingress's, say) is logged beside the request's own id, which it never becomes: the id ties
// every log line of a request together and is kept in its audit event, so a caller must not pick it.
const callerRequestId = (header: unknown) => (typeof header === 'string' && /^[\w-]{8,64}$/.test(header) ? { callerRequestId: header } : {});

export type { RouteAccess, RouteDecision } from './auth/route-access';
export { gatewayMetrics } from './health/metrics';

/** Who may call each route, read from the controllers' decorators: the route × role matrix's rows. */
export const gatewayRouteDecisions = () => routeDecisions(gatewayControllers);

export async function startGateway(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(gatewayEnv, env);
  assertSigningKeysFor('gateway', config.SIGNING_KEYS);
  const logger = createLogger('gateway', config.LOG_LEVEL, { format: config.LOG_FORMAT });
  // Automatic pipelining: the rate-limit counts and session checks of the requests one turn of the event loop
  // handles leave in one write instead of one each.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
  const metrics = gatewayMetrics();
  const client = new RedisStreamsClient({
    redisUrl: config.REDIS_URL,
    prefix: config.BUS_PREFIX,
    app: 'gateway',
    timeoutMs: config.BUS_TIMEOUT_MS,
    logger,
    observer: metrics.busClient,
    signingKeys: config.SIGNING_KEYS,
  });
  await client.connect();
  const adapter = new GatewayFastifyAdapter({
    bodyLimit: JSON_BODY_LIMIT,
    // Only configured proxies' X-Forwarded-For is believed; by default the socket's peer is the client.
    trustProxy: config.TRUST_PROXY,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node checks the request and headers timeouts on this interval (30 s by default), so they act on time.
    http: { headersTimeout: Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS), connectionsCheckingInterval: 1000 },
    genReqId: () => randomUUID(),
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register({ config, logger, bus: new ServiceBus(client), redis }),
    adapter,
    // Fastify's own JSON parser only: no form-encoded bodies (see registerStateChangingRequestChecks).
    { logger: new PinoNestLogger(logger), bodyParser: false },
  );
  const fastify = app.getHttpAdapter().getInstance();
  applyJsonBodyLimits(fastify, app.get(AccessTokenGuard));
  // Everything below a request — logs, outgoing bus messages — carries its correlation id.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    runWithCorrelationId(request.id, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logger.info(
      {
        correlationId: request.id,
        ...callerRequestId(request.headers['x-request-id']),
        method: request.method,
        url: loggableUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
  // Errors Fastify raises before Nest sees the request (body too large, malformed JSON, the checks below).
  const auditTrail = app.get<AuditTrail>(AUDIT_TRAIL);
  fastify.setErrorHandler((error, request, reply) => answerFailure(error, request, reply, { logger, auditTrail }));
  const web = loadWebBuild(config.WEB_DIST, config.PUBLIC_URL);
  // Before the checks below, whose refusals are answers too.
  registerSecurityHeaders(fastify, {
    publicUrl: config.PUBLIC_URL,
    storage: { endpoint: config.S3_ENDPOINT, bucket: config.S3_BUCKET, logBucket: config.S3_LOG_BUCKET },
    inlineScriptHashes: web?.inlineScriptHashes ?? [],
  });
  registerStateChangingRequestChecks(fastify, config.PUBLIC_URL);
  observeHttp(fastify, metrics.registry);
  const apiDocs = openApiPages(gatewayControllers, '0.1.0');
  const closeQueueBoard = await registerQueueBoard(fastify, { passes: app.get(QueueBoardPasses), redis, busPrefix: config.BUS_PREFIX, logger });
  await registerSpa(fastify, web);
  await app.listen(config.PORT, config.HOST);
  const ready = async () => (await redis.ping().catch(() => undefined)) === 'PONG';
  const internal = await startHealthServer(config.HEALTH_PORT, ready, { '/metrics': metrics.page, ...apiDocs });
  logger.info({ port: config.PORT, internalPort: config.HEALTH_PORT || undefined }, 'ready');
  return {
    url: await app.getUrl(),
    stop: stopSteps({
      'the health port': () => internal?.close(),
      'the HTTP server': () => app.close(),
      'the queue dashboard': closeQueueBoard,
      'the bus client': () => client.close(),
      Redis: () => redis.disconnect(),
    }),
  };
}

if (require.main === module) runMain('gateway', async () => onShutdown((await startGateway()).stop));
