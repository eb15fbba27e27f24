import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@spark/logging';
import { testPostgresUrl } from '@spark/testing';
import { DataSource, QueryFailedError } from 'typeorm';

// What the auth-service's outbox row for a sign-in e-mail carries.
const link = 'http://spark.test/magic-link-auth?token=c2VjcmV0LXRva2VuLXRoYXQtbXVzdC1ub3QtbGVhaw';
const code = '482915';

describe('a database error in the logs', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'postgres', url: await testPostgresUrl(), extra: { max: 1 } }).initialize();
  });
  afterAll(() => dataSource?.destroy());

  it("is logged with its message and SQLSTATE but without the query's parameters or the row PostgreSQL echoes", async () => {
    const runner = dataSource.createQueryRunner();
    await runner.query('CREATE TEMP TABLE outbox (id uuid PRIMARY KEY, job_name text NOT NULL, payload jsonb NOT NULL)');
    const error: unknown = await runner
      .query('INSERT INTO outbox (id, job_name, payload) VALUES ($1, $2, $3)', [randomUUID(), null, JSON.stringify({ email: 'ada@example.com', link, code })])
      .catch((failure: unknown) => failure);
    await runner.release();
    // The real error really carries the secrets, twice.
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(JSON.stringify((error as QueryFailedError).parameters)).toContain(code);
    expect((error as QueryFailedError & { driverError: { detail: string } }).driverError.detail).toContain(code);

    const lines: string[] = [];
    const logger = createLogger('auth-service', 'info', {
      destination: new Writable({ write: (chunk: Buffer, _encoding, done) => done(void lines.push(chunk.toString())) }),
    });
    logger.error({ err: error, pattern: 'auth.magic-link' }, 'message handler failed');

    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line).not.toContain(code);
    expect(line).not.toContain('c2VjcmV0LXRva2Vu');
    expect(JSON.parse(line)).toMatchObject({
      msg: 'message handler failed',
      err: { code: '23502', message: expect.stringContaining('violates not-null constraint') },
    });
  });
});
