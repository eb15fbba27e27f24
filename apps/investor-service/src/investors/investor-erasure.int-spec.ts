import { randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import type { DataSource } from 'typeorm';
import { investorMigrations } from '../migrations';
import { investorEraser } from './investor-erasure';
import { InvestorsRepository } from './investors.repository';

describe("an erased client's investor rows (real PostgreSQL)", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const campaignId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigrated({ url: database.url, schema: 'investor', migrations: investorMigrations });
    const investors = new InvestorsRepository(dataSource);
    await dataSource.query(`INSERT INTO investor.campaigns (id, subject, body) VALUES ($1, 'First round', 'Hello investors.')`, [campaignId]);
    for (const email of ['ann@example.com', 'joann@example.com']) {
      const { row } = await investors.insert({ id: randomUUID(), email, interest: `Early access, from ${email}` });
      await investors.insertAccessCode(row.id, Buffer.from(randomUUID()), 30);
      await dataSource.query(`INSERT INTO investor.campaign_deliveries (id, campaign_id, investor_id, email) VALUES ($1, $2, $3, $4)`, [
        randomUUID(),
        campaignId,
        row.id,
        email,
      ]);
    }
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const rowsOf = async (email: string) =>
    (
      await dataSource.query<{ investors: number; codes: number; deliveries: number }[]>(
        `SELECT (SELECT count(*)::int FROM investor.investors WHERE email = $1) AS investors,
                (SELECT count(*)::int FROM investor.deck_access a JOIN investor.investors i ON i.id = a.investor_id WHERE i.email = $1) AS codes,
                (SELECT count(*)::int FROM investor.campaign_deliveries WHERE email = $1) AS deliveries`,
        [email],
      )
    )[0];

  it("deletes the address's investor, code and deliveries, leaves an address that contains it and the campaign, and repeats as a no-op", async () => {
    const eraser = investorEraser(dataSource);
    await eraser.erase({ userId: randomUUID(), email: 'ann@example.com' });
    expect(await rowsOf('ann@example.com')).toEqual({ investors: 0, codes: 0, deliveries: 0 });
    expect(await rowsOf('joann@example.com')).toEqual({ investors: 1, codes: 1, deliveries: 1 });

    await eraser.erase({ userId: randomUUID(), email: 'ann@example.com' });
    expect(await rowsOf('joann@example.com')).toEqual({ investors: 1, codes: 1, deliveries: 1 });
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM investor.deck_access`)).toEqual([{ n: 1 }]);
    expect(await dataSource.query(`SELECT subject FROM investor.campaigns WHERE id = $1`, [campaignId])).toEqual([{ subject: 'First round' }]);
  });
});
