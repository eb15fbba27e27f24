import type { LoggerService } from '@nestjs/common';
import type { BaseConfig } from '@spark/config';
import pino, { type DestinationStream, type Logger } from 'pino';
import { currentCorrelationId } from './correlation';
import type * as PrettyOutput from './pretty';
import { redactSecrets, redactUrlSecrets } from './redaction';

export type { Logger } from 'pino';

export type LogFormat = BaseConfig['LOG_FORMAT'];

export interface LogOutput {
  /** `json` (the default) for collectors, `pretty` for a developer's terminal (see pretty.ts). */
  format?: LogFormat;
  /** Where lines go; standard output by default. */
  destination?: DestinationStream;
  /** Pretty only: ANSI colours; by default when the terminal (or FORCE_COLOR) supports them. */
  colorize?: boolean;
}

/**
 * A logger whose every line carries the app name and the current correlation id, and never a
 * secret: credentials, sign-in tokens and codes, database parameters (see redaction.ts).
 */
export function createLogger(app: string, level = 'info', { format = 'json', destination, colorize }: LogOutput = {}): Logger {
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
    // redactSecrets has already serialized every error, causes included; pino's serializer would drop `cause`.
    serializers: { err: (error: unknown) => error },
    hooks: {
      logMethod(args, write) {
        write.apply(this, args.map((arg) => (typeof arg === 'string' ? redactUrlSecrets(arg) : arg)) as typeof args);
      },
    },
  };
  if (format === 'pretty') {
    // Loaded only here: a deployed process logs JSON and need not hold pino-pretty and its dependencies.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { prettyDestination } = require('./pretty') as typeof PrettyOutput;
    return pino(options, prettyDestination(destination ?? process.stdout, { colorize }));
  }
  return destination ? pino(options, destination) : pino(options);
}

// Nest's start-up narration (a line per module and per route, ~50 on the gateway alone): debug, not info.
const NEST_START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Lets Nest's own messages go through the same logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    if (context && NEST_START_UP_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
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
