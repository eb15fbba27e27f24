import type { AccountEraser } from '@spark/service-runtime';
import type { DataSource } from 'typeorm';

/**
 * A deleted client's lead stays as a row, so the funnel's counts and the coach's history keep their shape, but
 * says nothing about the person: the address becomes a placeholder unique to the row, the free text is cleared.
 */
export const leadEraser = (dataSource: DataSource): AccountEraser => ({
  async erase({ email }) {
    await dataSource.query(
      `UPDATE leads.leads SET email = 'erased-' || id || '@erased.invalid', full_name = NULL, company = NULL, interest = NULL,
         challenge_token_hash = NULL
       WHERE email = $1`,
      [email],
    );
  },
});
