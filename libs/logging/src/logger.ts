import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { currentCorrelationId } from './correlation';
import { redactSecrets, redactUrlSecrets } from './redaction';

export type { Logger } from 'pino';

/**
 * A JSON logger whose every line carries the app name and the current correlation id, and never a
 * secret: credentials, sign-in tokens and codes, database parameters (see redaction.ts).
 */
export function createLogger(app: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: app,
    level,
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
    formatters: { log: (fields) => redactSecrets(fields) as Record<string, unknown> },
    hooks: {
      logMethod(args, write) {
        write.apply(this, args.map((arg) => (typeof arg === 'string' ? redactUrlSecrets(arg) : arg)) as typeof args);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Lets Nest's own messages go through the same JSON logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
