import { type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ServiceConfig } from '@spark/config';
import { type PatternName, queuesWorkedBy, type ServiceName } from '@spark/contracts';
import type { JobQueues, OutboxRelay } from '@spark/jobs';
import { type Logger, PinoNestLogger } from '@spark/logging';
import { RedisStreamsServer, type ServiceBus } from '@spark/messaging';
import type { ServiceDataSource, ServiceDataSourceOptions } from '@spark/persistence';
import { busServerMetrics, DRAIN_SECONDS, onShutdown, queueDepthMetric, type Stop, stopSteps } from '@spark/runtime';
import { type AccountErasure, startAccountErasure } from './account-erasure';
import { bootApp } from './boot-app';
import { startCommandLedger } from './command-ledger';
import { NotDoneFilter } from './not-done.filter';

/** What a service's module is built from: everything that touches the outside world. */
export interface ServiceInfrastructure {
  config: ServiceConfig;
  logger: Logger;
  dataSource: ServiceDataSource;
  jobs: JobQueues;
  outbox: OutboxRelay;
  bus: ServiceBus;
}

export interface ServiceDefinition {
  name: ServiceName;
  migrations: ServiceDataSourceOptions['migrations'];
  module: (infrastructure: ServiceInfrastructure) => DynamicModule;
  env?: NodeJS.ProcessEnv;
  /** Its SIGTERM budget when longer than an app's (`DRAIN_SECONDS`). */
  drainSeconds?: number;
  /**
   * Commands whose requests, read off the bus together, commit in one transaction (`RequestLedger`): a hot write
   * whose handler can share a transaction with others of its kind, its statement batched with `joinBatch`.
   */
  groupCommit?: readonly PatternName[];
  /** The part of a deleted account this service erases, and how (docs/data-rights.md, "Account deletion"). */
  accountErasure?: (infrastructure: ServiceInfrastructure) => Pick<AccountErasure, 'part' | 'eraser'>;
}

/**
 * Boots one replica of a service (`bootApp`), then its Nest microservice on the Redis Streams transport and, when it
 * erases a part of deleted accounts, that queue's worker. Returns a stop function (also wired to signals when
 * `handleSignals` is true).
 */
export async function startService(definition: ServiceDefinition, handleSignals = true): Promise<Stop> {
  const drainSeconds = definition.drainSeconds ?? DRAIN_SECONDS.app;
  const app = `${definition.name}-service`;
  // Outbox adds issued in the same tick share one write (BullMQ producers only; workers block elsewhere).
  const boot = { app, schema: definition.name, migrations: definition.migrations, env: definition.env, autoPipelining: true };
  const stop = await bootApp(boot, async ({ config, logger, dataSource, jobs, outbox, bus, registry }) => {
    const ledger = startCommandLedger(dataSource, definition.name, logger, definition.groupCommit);
    const infrastructure: ServiceInfrastructure = { config, logger, dataSource, jobs, outbox, bus };
    const microservice = await NestFactory.createMicroservice(definition.module(infrastructure), {
      strategy: new RedisStreamsServer({
        redisUrl: config.REDIS_URL,
        prefix: config.BUS_PREFIX,
        service: definition.name,
        logger,
        // Handlers finish within the budget, leaving time to close connections after them.
        drainTimeoutMs: (drainSeconds - 5) * 1000,
        observer: busServerMetrics(registry),
        ledger,
        signingKeys: config.SIGNING_KEYS,
      }),
      logger: new PinoNestLogger(logger),
    });
    microservice.useGlobalFilters(new NotDoneFilter(definition.name));
    await microservice.listen();
    const erasure = definition.accountErasure?.(infrastructure);
    const erasureWorker = erasure && startAccountErasure({ ...erasure, outboxSchema: definition.name }, { config, dataSource, logger, bus });
    const worked = queuesWorkedBy(definition.name).map((queue) => jobs.queue(queue));
    if (worked.length > 0) queueDepthMetric(registry, worked);
    return stopSteps({
      'the bus server': () => microservice.close(),
      'the account erasure worker': () => erasureWorker?.close(),
      'the command ledger': () => ledger.stop(),
    });
  });
  if (handleSignals) onShutdown(stop, drainSeconds);
  return stop;
}
