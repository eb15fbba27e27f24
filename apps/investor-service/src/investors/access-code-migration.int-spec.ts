import { randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import type { DataSource } from 'typeorm';
import { HashAccessCodes1763800000061 } from '../migrations/1763800000061-hash-access-codes';
import { investorMigrations } from '../migrations';
import { InvestorsRepository } from './investors.repository';
import { InvestorsService } from './investors.service';

// Codes handed out before codes were hashed: the migration must keep them working, bound to their
// investor, and leave no clear code behind.
describe('the migration that hashes clear-text access codes (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const code = 'SPARK-7Q2M-X9RT-4KZW-0HNB-C3VD';
  const investorId = randomUUID();

  const open = (migrations: typeof investorMigrations) => openMigrated({ url: database.url, schema: 'investor', migrations });

  beforeAll(async () => {
    database = await createTestDatabase();
    const before = await open(investorMigrations.slice(0, investorMigrations.indexOf(HashAccessCodes1763800000061)));
    await before.query(`INSERT INTO investor.investors (id, email) VALUES ($1, 'early@fund.test')`, [investorId]);
    await before.query(`INSERT INTO investor.deck_access (investor_id, access_code, access_count) VALUES ($1, $2, 3)`, [investorId, code]);
    await before.destroy();
    dataSource = await open(investorMigrations);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('keeps only the hash, gives the code a 30-day window from the migration, and keeps its count', async () => {
    const [row] = await dataSource.query(
      `SELECT encode(code_hash, 'hex') AS hash, encode(sha256(convert_to($2, 'UTF8')), 'hex') AS expected,
              round(extract(epoch FROM expires_at - now()) / 86400) AS days_left, access_count
       FROM investor.deck_access WHERE investor_id = $1`,
      [investorId, code],
    );
    expect(row).toEqual({ hash: row.expected, expected: row.expected, days_left: '30', access_count: 3 });
    const columns = await dataSource.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'investor' AND table_name = 'deck_access'`);
    expect(columns.map((column: { column_name: string }) => column.column_name)).not.toContain('access_code');
  });

  it('still opens the deck with the old code and its e-mail, and with no other e-mail', async () => {
    const investors = new InvestorsService(new InvestorsRepository(dataSource));
    await expect(investors.redeemAccessCode({ email: 'someone@fund.test', accessCode: code })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(investors.redeemAccessCode({ email: 'early@fund.test', accessCode: code })).resolves.toEqual({ investorId, accessCount: 4 });
  });
});
