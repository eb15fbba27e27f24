import { Writable } from 'node:stream';
import { createLogger } from './logger';

/** A logger writing into an array, one parsed JSON object per line. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('test', 'info', { destination }), lines };
}

describe('log redaction', () => {
  const token = 'Qm9vaw-secret-token-value_0123456789abcdef';

  it('replaces credentials and sign-in secrets at any depth, in any letter case', () => {
    const { logger, lines } = capturingLogger();
    logger.info(
      {
        headers: { Authorization: 'Bearer eyJhbGciOi.payload.sig', cookie: 'spark_refresh=abc', 'set-cookie': ['spark_refresh=def'] },
        job: {
          data: { email: 'ada@example.com', link: `https://spark.test/magic-link-auth?token=${token}`, code: '123456', refreshToken: 'r1', magicLink: 'm' },
        },
        token,
        access_token: 'a1',
      },
      'signing in',
    );
    const line = lines.join('');
    for (const secret of ['eyJhbGciOi', 'spark_refresh=', token, '123456', '"r1"', '"a1"', '"m"']) expect(line).not.toContain(secret);
    expect(line).toContain('ada@example.com');
    expect(JSON.parse(line)).toMatchObject({ job: { data: { code: '[redacted]', link: '[redacted]' } }, headers: { Authorization: '[redacted]' } });
  });

  it('keeps error codes and SQLSTATEs readable while hiding six-digit codes', () => {
    const { logger, lines } = capturingLogger();
    logger.warn({ code: 'SERVICE_UNAVAILABLE', err: Object.assign(new Error('duplicate key'), { code: '23505' }) }, 'failed');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ code: 'SERVICE_UNAVAILABLE', err: { code: '23505', message: 'duplicate key' } });
  });

  it('removes token and code values from URLs in any string, the message included, query or fragment', () => {
    const { logger, lines } = capturingLogger();
    logger.info({ url: `/api/auth/redeem?next=app&token=${token}&code=654321` }, `opened /magic-link-auth#token=${token}`);
    const line = lines[0] ?? '';
    expect(line).not.toContain(token);
    expect(line).not.toContain('654321');
    expect(JSON.parse(line)).toMatchObject({
      url: '/api/auth/redeem?next=app&token=[redacted]&code=[redacted]',
      msg: 'opened /magic-link-auth#token=[redacted]',
    });
  });

  it('does not change the objects it logs', () => {
    const { logger } = capturingLogger();
    const fields = { token, nested: { code: '123456' } };
    const error = Object.assign(new Error('x'), { parameters: ['secret'] });
    logger.error({ ...fields, err: error }, 'x');
    expect(fields).toEqual({ token, nested: { code: '123456' } });
    expect(error.parameters).toEqual(['secret']);
  });
});
