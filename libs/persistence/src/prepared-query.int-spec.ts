import { testPostgresUrl } from '@spark/testing';
import { createServiceDataSource } from './data-source';
import { rowsToRead } from './keyset';
import { inUnitOfWork, type ServiceDataSource } from './unit-of-work';

describe('a prepared query', () => {
  let dataSource: ServiceDataSource;
  const schema = `prepared_${process.pid}`;

  beforeAll(async () => {
    // One connection: a query that kept its connection would make the next one wait forever.
    dataSource = await createServiceDataSource({ url: await testPostgresUrl(), schema, migrations: [], poolSize: 1 }).initialize();
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await dataSource.query(`CREATE TABLE ${schema}.notes (id int PRIMARY KEY, body text NOT NULL)`);
  });
  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await dataSource?.destroy();
  });

  const bodies = () => dataSource.preparedQuery<{ body: string }>('notes-by-id', `SELECT body FROM ${schema}.notes WHERE id >= $1 ORDER BY id`, [0]);

  it('runs under its name again and again on the one pooled connection, giving it back each time', async () => {
    await dataSource.query(`INSERT INTO ${schema}.notes VALUES (1, 'first')`);
    for (let i = 0; i < 3; i++) expect(await bodies()).toEqual([{ body: 'first' }]);
  });

  it("joins the unit of work: it sees the unit's own writes, and nothing of them after a rollback", async () => {
    const { seenInside, prepared } = await inUnitOfWork(dataSource, async () => {
      await dataSource.query(`INSERT INTO ${schema}.notes VALUES (2, 'second')`);
      const seen = await bodies();
      // The unit's own connection now holds the statement under its name: planned once, kept for the next call.
      const statements = await dataSource.query<{ name: string }[]>(`SELECT name FROM pg_prepared_statements`);
      return { seenInside: seen, prepared: statements.map(({ name }) => name) };
    });
    expect(seenInside).toEqual([{ body: 'first' }, { body: 'second' }]);
    expect(prepared).toContain('notes-by-id');

    await expect(
      inUnitOfWork(dataSource, async () => {
        await dataSource.query(`INSERT INTO ${schema}.notes VALUES (3, 'third')`);
        expect(await bodies()).toHaveLength(3);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await bodies()).toEqual([{ body: 'first' }, { body: 'second' }]);
  });

  it('keeps one plan for a page whose size is written in, where `LIMIT $1` is planned again on every run', async () => {
    await dataSource.query(`INSERT INTO ${schema}.notes SELECT n, 'note ' || n FROM generate_series(10, 20000) n`);
    await dataSource.query(`ANALYZE ${schema}.notes`);
    const plans = async (name: string) => {
      const [row] = await dataSource.query<{ generic_plans: string; custom_plans: string }[]>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1`,
        [name],
      );
      return { generic: Number(row?.generic_plans), custom: Number(row?.custom_plans) };
    };
    for (let run = 0; run < 8; run++) {
      await dataSource.preparedQuery('page-size-parameter', `SELECT id FROM ${schema}.notes ORDER BY id DESC LIMIT $1`, [rowsToRead(25)]);
      await dataSource.preparedQuery('page-size-written', `SELECT id FROM ${schema}.notes ORDER BY id DESC LIMIT ${rowsToRead(25)}`, []);
    }
    expect(await plans('page-size-parameter')).toEqual({ generic: 0, custom: 8 });
    expect(await plans('page-size-written')).toEqual({ generic: 8, custom: 0 });
  });
});
