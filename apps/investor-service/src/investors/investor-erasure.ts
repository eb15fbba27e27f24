import type { AccountEraser } from '@spark/service-runtime';
import type { DataSource } from 'typeorm';

const ofInvestor = `investor_id IN (SELECT id FROM investor.investors WHERE email = $1)`;

/**
 * A deleted client who once filled a /donate form, or whom an admin added, stops being an investor contact: the row
 * with their address and words, its deck code and every campaign delivery to them go. Nothing is kept for counts, so
 * no admin can list or mail them again. The address arrives as `emailSchema` normalised it, as the forms stored it.
 */
export const investorEraser = (dataSource: DataSource): AccountEraser => ({
  async erase({ email }) {
    // Children first, each by its own match, so nothing rests on the foreign keys' cascades; a delivery a campaign
    // commits meanwhile holds the investor row, so the last delete waits for it and its cascade takes it.
    await dataSource.query(`DELETE FROM investor.campaign_deliveries WHERE email = $1 OR ${ofInvestor}`, [email]);
    await dataSource.query(`DELETE FROM investor.deck_access WHERE ${ofInvestor}`, [email]);
    await dataSource.query(`DELETE FROM investor.investors WHERE email = $1`, [email]);
  },
});
