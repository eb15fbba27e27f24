import { Writable } from 'node:stream';
import { runWithCorrelationId } from './correlation';
import { createLogger, type LogFormat, PinoNestLogger } from './logger';

function capture(format: LogFormat) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('gateway', 'info', { format, destination, colorize: false }), lines };
}

const correlationId = '5c0e3b1a-8f1e-4c1a-9d55-0f3c2a1b7e90';
const requestLine = { method: 'GET', url: '/api/auth/redeem?token=Qm9vaw-secret-token-value_0123456789', status: 401, ms: 12 };

describe('LOG_FORMAT', () => {
  it('json: one JSON object per line with the request fields and the correlation id', () => {
    const { logger, lines } = capture('json');
    runWithCorrelationId(correlationId, () => logger.info(requestLine, 'request'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      app: 'gateway',
      msg: 'request',
      method: 'GET',
      url: '/api/auth/redeem?token=[redacted]',
      status: 401,
      ms: 12,
      correlationId,
    });
  });

  it('pretty: a request is one line of time, level, method, path, status, duration and correlation id', () => {
    const { logger, lines } = capture('pretty');
    runWithCorrelationId(correlationId, () => logger.info(requestLine, 'request'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/auth\/redeem\?token=\[redacted\] 401 12 ms {2}\[5c0e3b1a-8f1e-4c1a-9d55-0f3c2a1b7e90\]\n$/,
    );
  });

  it('pretty: other lines keep their fields inline, never a secret, and not the app name (npm start prefixes it)', () => {
    const { logger, lines } = capture('pretty');
    logger.info({ port: 8080, token: 'abc' }, 'ready');
    expect(lines[0]).toMatch(/INFO: ready \{"port":8080,"token":"\[redacted\]"\}\n$/);
    expect(lines[0]).not.toContain('gateway');
  });

  it.each<LogFormat>(['json', 'pretty'])('%s: an error is logged with its cause chain and the cause’s own details', (format) => {
    const { logger, lines } = capture(format);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED', port: 6379 });
    const error = new Error('sign-in e-mail not queued', { cause: new Error('Redis unavailable', { cause: refused }) });
    logger.error({ err: error }, 'request failed');
    const text = lines.join('');
    expect(text).toContain('sign-in e-mail not queued: Redis unavailable: connect ECONNREFUSED 127.0.0.1:6379');
    expect(text).toContain('caused by: Error: Redis unavailable');
    expect(text).toContain('ECONNREFUSED');
    if (format === 'json') {
      expect(JSON.parse(text)).toMatchObject({
        err: { cause: { message: 'Redis unavailable: connect ECONNREFUSED 127.0.0.1:6379', cause: { code: 'ECONNREFUSED', port: 6379 } } },
      });
    }
  });

  it("leaves Nest's start-up narration to debug and keeps its other messages at info", () => {
    const { logger, lines } = capture('json');
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/api/leads, POST} route', 'RouterExplorer');
    nest.log('AuthModule dependencies initialized', 'InstanceLoader');
    nest.log('Nest microservice successfully started', 'NestMicroservice');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['Nest microservice successfully started']);
  });
});
