import { createCipheriv, createDecipheriv, createSecretKey, hash, type KeyObject, randomBytes } from 'node:crypto';
import { escapeLiteral } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { inUnitOfWork, type ServiceDataSource } from './unit-of-work';

/** Longer than any caller waits for an answer: a request redelivered later is skipped as expired anyway. */
const RETENTION = '10 minutes';
const SCHEMA_NAME = /^[a-z_]+$/;

const UNIQUE_VIOLATION = '23505';
/** Another delivery of the same request recorded its outcome first. */
const isRecordedAlready = (error: unknown) =>
  (error as { code?: string }).code === UNIQUE_VIOLATION && (error as { constraint?: string }).constraint === 'handled_requests_pkey';

export interface LedgerRequest {
  requestId: string;
  pattern: string;
  /** The request may have run before (another replica took it over, or a person repeated it under one Idempotency-Key): its stored outcome is looked for first. */
  redelivered: boolean;
  /** Local epoch ms after which the effect must not commit. */
  deadline?: number;
}

interface GroupMember {
  request: LedgerRequest;
  run: () => Promise<unknown>;
  resolve: (outcome: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Runs each command at most once per request id: the command's database effect and its outcome commit in one
 * transaction, and a redelivery of the same request gets the stored outcome instead of running again.
 *
 * Commands of the `grouped` patterns that start in the same turn of the event loop (a batch read off the bus) commit
 * in ONE transaction, with one record per request: one commit, and one statement for what they write through
 * `joinBatch`, instead of one each. Their handlers must be able to run side by side in one transaction. When the
 * group fails, each of its commands runs again alone (and finds its recorded outcome if the group did commit).
 *
 * Outcomes can hold secrets (a session's tokens), so a row is keyed by a hash of the request id and its
 * outcome is encrypted with a key derived from the request id: the rows are useless without the request,
 * which only the bus carries.
 */
export class RequestLedger {
  private readonly table: string;
  private gathering?: GroupMember[];
  private groupScheduled = false;
  private groupCommitting = false;

  constructor(
    private readonly dataSource: ServiceDataSource,
    schema: string,
    private readonly grouped: ReadonlySet<string> = new Set(),
  ) {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`Not a schema name: ${schema}`);
    this.table = `"${schema}".handled_requests`;
  }

  once<T>(request: LedgerRequest, run: () => Promise<T>): Promise<T> {
    if (request.redelivered || !this.grouped.has(request.pattern)) return this.alone(request, run);
    return new Promise<T>((resolve, reject) => {
      (this.gathering ??= []).push({ request, run, resolve: resolve as (outcome: unknown) => void, reject });
      this.startGroupSoon();
    });
  }

  /**
   * Once the commands that start in this turn of the event loop have joined; while a group commits, the next one
   * waits for it and grows meanwhile, as the load does (fewer, larger groups cost the database less per command).
   */
  private startGroupSoon(): void {
    if (this.groupScheduled || !this.gathering || this.groupCommitting) return;
    this.groupScheduled = true;
    setImmediate(() => {
      this.groupScheduled = false;
      void this.commitGroup();
    });
  }

  /**
   * A first delivery skips the read of a stored outcome; a concurrent duplicate is still caught when both try to
   * record, and the loser's effect rolls back. The outcome is recorded in the COMMIT's round trip.
   */
  private async alone<T>({ requestId, pattern, redelivered, deadline }: LedgerRequest, run: () => Promise<T>): Promise<T> {
    const secrets = secretsOf(requestId);
    if (redelivered) {
      const earlier = await this.find<T>(secrets);
      if (earlier) return earlier.outcome;
    }
    try {
      return await inUnitOfWork(this.dataSource, run, deadline, (outcome) => this.recordStatement([{ secrets, pattern, outcome }]));
    } catch (error) {
      if (!isRecordedAlready(error)) throw error;
      const earlier = await this.find<T>(secrets);
      if (!earlier) throw new Error(`The outcome of request ${pattern} vanished while it was being recorded`);
      return earlier.outcome;
    }
  }

  private async commitGroup(): Promise<void> {
    const members = this.gathering ?? [];
    this.gathering = undefined;
    this.groupCommitting = true;
    try {
      await this.commitTogether(members);
    } finally {
      this.groupCommitting = false;
      this.startGroupSoon();
    }
  }

  private async commitTogether(members: GroupMember[]): Promise<void> {
    const runAlone = ({ request, run, resolve, reject }: GroupMember) => this.alone(request, run).then(resolve, reject);
    if (members.length === 1) return runAlone(members[0]);
    const deadlines = members.flatMap(({ request }) => (request.deadline === undefined ? [] : [request.deadline]));
    const records = (outcomes: unknown[]) =>
      members.map(({ request }, index) => ({ secrets: secretsOf(request.requestId), pattern: request.pattern, outcome: outcomes[index] }));
    try {
      const outcomes = await inUnitOfWork(
        this.dataSource,
        () => allFulfilled(members.map(({ run }) => run())),
        deadlines.length > 0 ? Math.min(...deadlines) : undefined,
        (results) => this.recordStatement(records(results)),
      );
      members.forEach(({ resolve }, index) => resolve(outcomes[index]));
    } catch {
      // The group rolled back (or its COMMIT's answer was lost, and then each command alone finds its recorded outcome).
      // Alone, a duplicate request, a late deadline or a failure is each command's own.
      await Promise.all(members.map(runAlone));
    }
  }

  /**
   * The records as one statement without parameters, so it can ride in the COMMIT's round trip: the keys and the
   * sealed outcomes are bytes written in hex, the patterns quoted literals. A row for the same request makes it fail
   * (unique violation), which rolls the commands' effects back.
   */
  private recordStatement(records: { secrets: RequestSecrets; pattern: string; outcome: unknown }[]): string {
    const rows = records.map(
      ({ secrets, pattern, outcome }) =>
        `('\\x${secrets.key.toString('hex')}', ${escapeLiteral(pattern)}, '\\x${seal(secrets.cipherKey, outcome).toString('hex')}')`,
    );
    return `INSERT INTO ${this.table} (request_key, pattern, outcome) VALUES ${rows.join(', ')}`;
  }

  /** Forgets outcomes no redelivery can ask for any more. */
  async prune(): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${this.table} WHERE handled_at < now() - interval '${RETENTION}'`);
  }

  private async find<T>(secrets: RequestSecrets): Promise<{ outcome: T } | undefined> {
    const rows: { outcome: Buffer }[] = await this.dataSource.query(`SELECT outcome FROM ${this.table} WHERE request_key = $1`, [secrets.key]);
    return rows[0] ? { outcome: unseal(secrets.cipherKey, rows[0].outcome) as T } : undefined;
  }
}

/** Every value, once all have settled: work still running must not outlive the transaction it joined. */
async function allFulfilled<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

interface RequestSecrets {
  key: Buffer;
  /** A key object: given a Buffer, Node's cipher constructors take a path that costs several times the encryption. */
  cipherKey: KeyObject;
}

const secretsOf = (requestId: string): RequestSecrets => ({
  key: hash('sha256', `spark.request-ledger.key:${requestId}`, 'buffer'),
  cipherKey: createSecretKey(hash('sha256', `spark.request-ledger.cipher:${requestId}`, 'buffer')),
});

const IV_BYTES = 12;
const TAG_BYTES = 16;

function seal(cipherKey: KeyObject, outcome: unknown): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', cipherKey, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(outcome ?? null), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function unseal(cipherKey: KeyObject, sealed: Buffer): unknown {
  const decipher = createDecipheriv('aes-256-gcm', cipherKey, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
}

/** The ledger's table, in the schema of each service that serves commands. */
export class CreateHandledRequests1764200000000 implements MigrationInterface {
  name = 'CreateHandledRequests1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    await runner.query(`
      CREATE TABLE "${schema}".handled_requests (
        request_key bytea PRIMARY KEY,
        pattern text NOT NULL,
        outcome bytea NOT NULL,
        handled_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX handled_requests_age_idx ON "${schema}".handled_requests (handled_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema ?? 'public';
    await runner.query(`DROP TABLE "${schema}".handled_requests`);
  }
}
