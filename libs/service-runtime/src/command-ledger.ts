import type { PatternName } from '@spark/contracts';
import type { Logger } from '@spark/logging';
import type { CommandLedger } from '@spark/messaging';
import { RequestLedger, type ServiceDataSource } from '@spark/persistence';
import { notDoneError } from './not-done.filter';

const PRUNE_EVERY_MS = 60_000;

/**
 * The service's request ledger as the transport uses it, pruned in the background until `stop`; the commands of
 * `groupCommit` that arrive together commit together (`RequestLedger`).
 */
export function startCommandLedger(
  dataSource: ServiceDataSource,
  service: string,
  logger: Logger,
  groupCommit: readonly PatternName[] = [],
): CommandLedger & { stop(): void } {
  const ledger = new RequestLedger(dataSource, service, new Set(groupCommit));
  const prune = () => void ledger.prune().catch((error: unknown) => logger.warn({ err: error }, 'pruning the request ledger failed'));
  const pruning = setInterval(prune, PRUNE_EVERY_MS);
  pruning.unref();
  return {
    once: (request, run) =>
      ledger.once(request, run).catch((error: unknown) => {
        throw notDoneError(error, service) ?? error;
      }),
    stop: () => clearInterval(pruning),
  };
}
