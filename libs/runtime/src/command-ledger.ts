import type { Logger } from '@spark/logging';
import type { CommandLedger } from '@spark/messaging';
import { isDatabaseUnavailable, RequestLedger, type ServiceDataSource } from '@spark/persistence';
import { databaseUnavailableError } from './database-unavailable.filter';

const PRUNE_EVERY_MS = 60_000;

/** The service's request ledger as the transport uses it, pruned in the background until `stop`. */
export function startCommandLedger(dataSource: ServiceDataSource, service: string, logger: Logger): CommandLedger & { stop(): void } {
  const ledger = new RequestLedger(dataSource, service);
  const prune = () => void ledger.prune().catch((error: unknown) => logger.warn({ err: error }, 'pruning the request ledger failed'));
  const pruning = setInterval(prune, PRUNE_EVERY_MS);
  pruning.unref();
  return {
    once: (requestId, pattern, redelivered, run) =>
      ledger.once(requestId, pattern, redelivered, run).catch((error: unknown) => {
        throw isDatabaseUnavailable(error) ? databaseUnavailableError(service) : error;
      }),
    stop: () => clearInterval(pruning),
  };
}
