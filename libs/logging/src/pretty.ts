import { prettyFactory } from 'pino-pretty';
import type { DestinationStream } from 'pino';

type LogLine = Record<string, unknown>;

/** A request line's fields as one sentence: `GET /api/leads 201 12 ms`. */
function withRequestSentence({ method, url, status, ms, ...rest }: LogLine): LogLine {
  return { ...rest, msg: `${String(method)} ${String(url)} ${String(status)} ${String(ms)} ms` };
}

/** The correlation id at the end of the message, so a line can be followed into the services' lines. */
function withCorrelationInMessage({ correlationId, ...rest }: LogLine): LogLine {
  return correlationId ? { ...rest, msg: `${String(rest.msg ?? '')}  [${String(correlationId)}]` } : rest;
}

/**
 * A destination that turns each JSON line into one readable line (time, level, message, the other
 * fields inline; an error with its stack and causes below it) and writes it to `destination`.
 * The app's name is left out: `npm start` prefixes every line with it.
 */
export function prettyDestination(destination: DestinationStream, { colorize }: { colorize?: boolean } = {}): DestinationStream {
  const prettify = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,app,name',
  });
  return {
    write(text: string) {
      const line = JSON.parse(text) as LogLine;
      const readable = line.msg === 'request' && 'method' in line ? withRequestSentence(line) : line;
      destination.write(prettify(withCorrelationInMessage(readable)));
    },
  };
}
