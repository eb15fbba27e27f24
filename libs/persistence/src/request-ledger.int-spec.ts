import { randomUUID } from 'node:crypto';
import { createTestDatabase, eventually, type TestDatabase } from '@spark/testing';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { openMigrated } from './data-source';
import { CreateHandledRequests1764200000000, RequestLedger } from './request-ledger';
import { afterCommit, DeadlinePassed, inUnitOfWork, joinBatch, type ServiceDataSource } from './unit-of-work';

class CreateEffects1700000000000 implements MigrationInterface {
  name = 'CreateEffects1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE ledgertest.effects (id serial PRIMARY KEY, request text NOT NULL)`);
  }
  async down(): Promise<void> {}
}

describe('the request ledger: a command runs once per request id', () => {
  let database: TestDatabase;
  let dataSource: ServiceDataSource;
  let ledger: RequestLedger;
  const effectsOf = async (request: string) =>
    Number((await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ledgertest.effects WHERE request = $1`, [request]))[0].n);
  /** A command whose effect is one row, written through the service's ordinary data source. */
  const command =
    (request: string, answer = { answer: request }) =>
    async () => {
      await dataSource.query(`INSERT INTO ledgertest.effects (request) VALUES ($1)`, [request]);
      return answer;
    };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({
      url: database.url,
      schema: 'ledgertest',
      migrations: [CreateEffects1700000000000, CreateHandledRequests1764200000000],
    });
    ledger = new RequestLedger(dataSource, 'ledgertest');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('answers a redelivery with the first outcome and does not run it again', async () => {
    const id = randomUUID();
    expect(await ledger.once({ requestId: id, pattern: 'test.command', redelivered: false }, command(id))).toEqual({ answer: id });
    const rerun = jest.fn(command(id, { answer: 'second' }));
    expect(await ledger.once({ requestId: id, pattern: 'test.command', redelivered: true }, rerun)).toEqual({ answer: id });
    expect(rerun).not.toHaveBeenCalled();
    expect(await effectsOf(id)).toBe(1);
  });

  it('runs two concurrent deliveries of one request to one effect and one answer', async () => {
    const id = randomUUID();
    const outcomes = await Promise.all([
      ledger.once({ requestId: id, pattern: 'test.command', redelivered: false }, command(id, { answer: 'a' })),
      ledger.once({ requestId: id, pattern: 'test.command', redelivered: false }, command(id, { answer: 'b' })),
    ]);
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(await effectsOf(id)).toBe(1);
  });

  it('records a command that wrote nothing, once, and answers its concurrent duplicate with the first outcome', async () => {
    const id = randomUUID();
    const pattern = `test.read-only-${id}`;
    const outcomes = await Promise.all(
      ['a', 'b'].map((answer) => ledger.once({ requestId: id, pattern, redelivered: false }, () => Promise.resolve({ answer }))),
    );
    expect(outcomes[0]).toEqual(outcomes[1]);
    const recorded = await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ledgertest.handled_requests WHERE pattern = $1`, [pattern]);
    expect(recorded[0].n).toBe(1);
    const rerun = jest.fn(() => Promise.resolve({ answer: 'c' }));
    expect(await ledger.once({ requestId: id, pattern, redelivered: true }, rerun)).toEqual(outcomes[0]);
    expect(rerun).not.toHaveBeenCalled();
  });

  it('keeps a pattern with a quote in it as it is', async () => {
    const id = randomUUID();
    const pattern = `test.o'quote-${id}`;
    await ledger.once({ requestId: id, pattern, redelivered: false }, command(id));
    const recorded = await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ledgertest.handled_requests WHERE pattern = $1`, [pattern]);
    expect(recorded[0].n).toBe(1);
  });

  it('undoes the effect of a command that throws and records nothing, so a retry runs it', async () => {
    const id = randomUUID();
    const failing = async () => {
      await command(id)();
      throw new Error('the handler broke after writing');
    };
    await expect(ledger.once({ requestId: id, pattern: 'test.command', redelivered: false }, failing)).rejects.toThrow('the handler broke');
    expect(await effectsOf(id)).toBe(0);
    expect(await ledger.once({ requestId: id, pattern: 'test.command', redelivered: true }, command(id))).toEqual({ answer: id });
    expect(await effectsOf(id)).toBe(1);
  });

  it('stores outcomes sealed: neither the request id nor the answer is readable in the table', async () => {
    const id = randomUUID();
    await ledger.once({ requestId: id, pattern: 'test.command', redelivered: false }, command(id, { answer: 'refresh-token-secret' }));
    const rows: { row: string }[] = await dataSource.query(`SELECT t::text AS row FROM ledgertest.handled_requests t`);
    for (const { row } of rows) {
      expect(row).not.toContain(id);
      expect(row).not.toContain(Buffer.from('refresh-token-secret').toString('hex'));
      expect(row).not.toContain('refresh-token-secret');
    }
  });

  it('joins nested transactions into the unit, and runs after-commit tasks only once it committed', async () => {
    const id = randomUUID();
    const seen: number[] = [];
    await expect(
      inUnitOfWork(dataSource, async () => {
        await dataSource.transaction((manager) => manager.query(`INSERT INTO ledgertest.effects (request) VALUES ($1)`, [id]));
        afterCommit(() => seen.push(1));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen).toEqual([]);
    expect(await effectsOf(id)).toBe(0);

    await inUnitOfWork(dataSource, async () => {
      await dataSource.transaction((manager) => manager.query(`INSERT INTO ledgertest.effects (request) VALUES ($1)`, [id]));
      afterCommit(() => void effectsOf(id).then((count) => seen.push(count)));
    });
    await eventually(() => seen.length > 0, 5_000, 'the after-commit task');
    expect(seen).toEqual([1]);
  });

  describe('commands of a grouped pattern that arrive together', () => {
    let grouped: RequestLedger;
    beforeAll(() => {
      grouped = new RequestLedger(dataSource, 'ledgertest', new Set(['test.grouped']));
    });
    /** A command that writes its effect and tells in which transaction; `fail` throws after the write. */
    const writeAndTell =
      (request: string, fail = false) =>
      async () => {
        const [{ txid }] = await dataSource.query<{ txid: string }[]>(
          `INSERT INTO ledgertest.effects (request) VALUES ($1) RETURNING txid_current()::text AS txid`,
          [request],
        );
        if (fail) throw new Error('the handler broke after writing');
        return { answer: request, txid };
      };
    const first = (requestId: string, pattern = 'test.grouped', deadline?: number) => ({ requestId, pattern, redelivered: false, deadline });

    it('commits them in one transaction, each with its own outcome, answered again on redelivery', async () => {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const outcomes = await Promise.all(ids.map((id) => grouped.once(first(id), writeAndTell(id))));
      expect(outcomes.map(({ answer }) => answer)).toEqual(ids);
      expect(new Set(outcomes.map(({ txid }) => txid)).size).toBe(1);
      for (const [index, id] of ids.entries()) {
        const rerun = jest.fn(writeAndTell(id));
        expect(await grouped.once({ ...first(id), redelivered: true }, rerun)).toEqual(outcomes[index]);
        expect(rerun).not.toHaveBeenCalled();
        expect(await effectsOf(id)).toBe(1);
      }
    });

    it('runs each alone again when one of them fails: the others commit, the failed one leaves nothing', async () => {
      const [ok, broken, alsoOk] = [randomUUID(), randomUUID(), randomUUID()];
      const outcomes = await Promise.allSettled([
        grouped.once(first(ok), writeAndTell(ok)),
        grouped.once(first(broken), writeAndTell(broken, true)),
        grouped.once(first(alsoOk), writeAndTell(alsoOk)),
      ]);
      expect(outcomes.map(({ status }) => status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect([await effectsOf(ok), await effectsOf(broken), await effectsOf(alsoOk)]).toEqual([1, 0, 1]);
      const txids = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.txid] : []));
      expect(new Set(txids).size).toBe(2);
    });

    it('runs a request delivered twice in one group once, and answers both with its outcome', async () => {
      const id = randomUUID();
      const outcomes = await Promise.all([grouped.once(first(id), writeAndTell(id)), grouped.once(first(id), writeAndTell(id))]);
      expect(outcomes[0]).toEqual(outcomes[1]);
      expect(await effectsOf(id)).toBe(1);
    });

    it('lets the others commit when one deadline has passed, and that one not at all', async () => {
      const [late, onTime] = [randomUUID(), randomUUID()];
      const outcomes = await Promise.allSettled([
        grouped.once(first(late, 'test.grouped', Date.now() - 1), writeAndTell(late)),
        grouped.once(first(onTime, 'test.grouped', Date.now() + 10_000), writeAndTell(onTime)),
      ]);
      expect(outcomes[0]).toMatchObject({ status: 'rejected' });
      expect(outcomes[0].status === 'rejected' && outcomes[0].reason).toBeInstanceOf(DeadlinePassed);
      expect(outcomes[1]).toMatchObject({ status: 'fulfilled' });
      expect([await effectsOf(late), await effectsOf(onTime)]).toEqual([0, 1]);
    });

    it('gathers the commands that arrive while a group commits into the next group', async () => {
      let open: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const [held, ...later] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const holding = grouped.once(first(held), async () => {
        await gate;
        return writeAndTell(held)();
      });
      const next: Promise<{ txid: string }>[] = [];
      for (const id of later) {
        await new Promise(setImmediate);
        next.push(grouped.once(first(id), writeAndTell(id)));
      }
      open();
      const outcomes = await Promise.all([holding, ...next]);
      expect(new Set(outcomes.slice(1).map(({ txid }) => txid)).size).toBe(1);
      expect(outcomes[1].txid).not.toBe(outcomes[0].txid);
    });

    it('runs the commands of other patterns each in its own transaction', async () => {
      const ids = [randomUUID(), randomUUID()];
      const outcomes = await Promise.all(ids.map((id) => grouped.once(first(id, 'test.command'), writeAndTell(id))));
      expect(new Set(outcomes.map(({ txid }) => txid)).size).toBe(2);
    });

    it('hands what they write through one batch to one call, and a lone write its own', async () => {
      const calls: string[][] = [];
      const writeMany = async (requests: readonly string[]) => {
        calls.push([...requests]);
        await dataSource.query(`INSERT INTO ledgertest.effects (request) SELECT unnest($1::text[])`, [requests]);
        return requests.map((request) => `wrote ${request}`);
      };
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const outcomes = await Promise.all(ids.map((id) => grouped.once(first(id), () => joinBatch(writeMany, id))));
      expect(outcomes).toEqual(ids.map((id) => `wrote ${id}`));
      expect(calls).toEqual([ids]);
      const lone = randomUUID();
      expect(await joinBatch(writeMany, lone)).toBe(`wrote ${lone}`);
      expect(calls[1]).toEqual([lone]);
    });
  });
});
