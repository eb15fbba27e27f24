import { randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { createTestDatabase, type TestDatabase } from '@spark/testing';
import type { DataSource } from 'typeorm';
import { investorMigrations } from '../migrations';
import { RedactCampaignAccessCodes1765900000060 } from '../migrations/1765900000060-redact-campaign-access-codes';

// Campaigns and their e-mails' jobs written before a campaign's text was kept without its access codes.
describe('the migration that takes the access codes out of stored campaigns (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const code = 'SPARK-7Q2M-X9RT-4KZW-0HNB-C3VD';
  const campaignId = randomUUID();
  const otherId = randomUUID();
  const body = `Hello,\n\nYour code: ${code}\n\n(or ${code.toLowerCase()})`;

  const open = (migrations: typeof investorMigrations) => openMigrated({ url: database.url, schema: 'investor', migrations });

  beforeAll(async () => {
    database = await createTestDatabase();
    const before = await open(investorMigrations.slice(0, investorMigrations.indexOf(RedactCampaignAccessCodes1765900000060)));
    await before.query(`INSERT INTO investor.campaigns (id, subject, body) VALUES ($1, 'Your code', $2), ($3, 'News', 'We grew.')`, [
      campaignId,
      body,
      otherId,
    ]);
    const payload = { deliveryId: randomUUID(), campaignId, email: 'early@fund.test', subject: 'Your code', body };
    await before.query(`INSERT INTO investor.outbox (id, queue, job_name, payload) VALUES ($1, 'mail', 'investor-email', $2)`, [
      payload.deliveryId,
      JSON.stringify(payload),
    ]);
    await before.destroy();
    dataSource = await open(investorMigrations);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('replaces every code in the campaigns and the outbox by a placeholder, and leaves the rest of the text', async () => {
    const campaigns = await dataSource.query(`SELECT id, subject, body FROM investor.campaigns ORDER BY subject`);
    expect(campaigns).toEqual([
      { id: otherId, subject: 'News', body: 'We grew.' },
      { id: campaignId, subject: 'Your code', body: 'Hello,\n\nYour code: [access code]\n\n(or [access code])' },
    ]);
    const [job] = await dataSource.query(`SELECT payload FROM investor.outbox WHERE job_name = 'investor-email'`);
    expect(job.payload.body).toBe('Hello,\n\nYour code: [access code]\n\n(or [access code])');
  });
});
