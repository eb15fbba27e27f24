import type { AccountEraser } from '@spark/service-runtime';
import type { DataSource } from 'typeorm';

/**
 * The e-mail ledger keeps its rows (they stop a redelivered job from sending twice) but forgets the address:
 * the recipient becomes a placeholder and an SMTP error, which can quote the address, is dropped.
 */
export const sentMailEraser = (dataSource: DataSource): AccountEraser => ({
  async erase({ email }) {
    await dataSource.query(`UPDATE notifier.sent_emails SET recipient = 'erased', error = NULL WHERE recipient = $1`, [email]);
  },
});
