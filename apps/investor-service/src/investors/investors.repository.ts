import type { Keyed, KeysetPosition } from '@spark/persistence';
import type { DataSource } from 'typeorm';

export interface InvestorRow {
  id: string;
  email: string;
  interest: string | null;
  created_at: Date;
  last_email_sent_at: Date | null;
  code_issued_at: Date | null;
  code_expires_at: Date | null;
  access_count: number | null;
  accessed_at: Date | null;
}

const selectInvestors = `
  SELECT i.id, i.email, i.interest, i.created_at, i.last_email_sent_at, a.issued_at AS code_issued_at, a.expires_at AS code_expires_at, a.access_count, a.accessed_at
  FROM investor.investors i LEFT JOIN investor.deck_access a ON a.investor_id = i.id`;

export class InvestorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts unless the e-mail is known; `created` tells which happened. */
  async insert(investor: { id: string; email: string; interest: string | null }): Promise<{ row: InvestorRow; created: boolean }> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO investor.investors (id, email, interest) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING id`,
      [investor.id, investor.email, investor.interest],
    );
    const row = await this.findByEmail(investor.email);
    if (!row) throw new Error(`investor ${investor.email} vanished after insert`);
    return { row, created: inserted.length > 0 };
  }

  async findByEmail(email: string): Promise<InvestorRow | undefined> {
    const rows: InvestorRow[] = await this.dataSource.query(`${selectInvestors} WHERE i.email = $1`, [email]);
    return rows[0];
  }

  async findById(id: string): Promise<InvestorRow | undefined> {
    const rows: InvestorRow[] = await this.dataSource.query(`${selectInvestors} WHERE i.id = $1`, [id]);
    return rows[0];
  }

  async findByEmails(emails: readonly string[]): Promise<InvestorRow[]> {
    return this.dataSource.query(`${selectInvestors} WHERE i.email = ANY($1::text[])`, [emails]);
  }

  /** Newest first, keyset on (created_at, id). */
  async page(after: KeysetPosition | undefined, limit: number): Promise<{ rows: Keyed<InvestorRow>[]; total: number }> {
    const rows: Keyed<InvestorRow>[] = await this.dataSource.query(
      `${selectInvestors.replace('SELECT ', 'SELECT i.created_at::text AS cursor_at, ')}
       WHERE $1::timestamptz IS NULL OR (i.created_at, i.id) < ($1::timestamptz, $2::uuid)
       ORDER BY i.created_at DESC, i.id DESC LIMIT $3`,
      [after?.key ?? null, after?.id ?? null, limit],
    );
    const [{ total }]: [{ total: number }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM investor.investors`);
    return { rows, total };
  }

  /** Stores the code's hash unless the investor has a code; its expiry, or undefined when one existed. */
  async insertAccessCode(investorId: string, codeHash: Buffer, ttlDays: number): Promise<Date | undefined> {
    const rows: { expires_at: Date }[] = await this.dataSource.query(
      `INSERT INTO investor.deck_access (investor_id, code_hash, issued_at, expires_at)
       VALUES ($1, $2, now(), now() + make_interval(days => $3))
       ON CONFLICT (investor_id) DO NOTHING RETURNING expires_at`,
      [investorId, codeHash, ttlDays],
    );
    return rows[0]?.expires_at;
  }

  /** Puts a new code in place of the investor's code (or the first one): the old hash is gone, the count starts again. */
  async replaceAccessCode(investorId: string, codeHash: Buffer, ttlDays: number): Promise<Date> {
    const rows: { expires_at: Date }[] = await this.dataSource.query(
      `INSERT INTO investor.deck_access (investor_id, code_hash, issued_at, expires_at)
       VALUES ($1, $2, now(), now() + make_interval(days => $3))
       ON CONFLICT (investor_id) DO UPDATE
         SET code_hash = EXCLUDED.code_hash, issued_at = EXCLUDED.issued_at, expires_at = EXCLUDED.expires_at, access_count = 0, accessed_at = NULL
       RETURNING expires_at`,
      [investorId, codeHash, ttlDays],
    );
    const [row] = rows;
    if (!row) throw new Error(`access code of ${investorId} was not stored`);
    return row.expires_at;
  }

  /**
   * Counts one use of the code if it belongs to this e-mail and has not expired; undefined otherwise.
   * Expiry follows the database clock, as every other expiry does.
   */
  async recordAccess(email: string, codeHash: Buffer, at: Date): Promise<{ investor_id: string; access_count: number } | undefined> {
    const rows: [{ investor_id: string; access_count: number }[], number] = await this.dataSource.query(
      `UPDATE investor.deck_access a SET access_count = a.access_count + 1, accessed_at = $3
       FROM investor.investors i
       WHERE a.investor_id = i.id AND i.email = $1 AND a.code_hash = $2 AND a.expires_at > now()
       RETURNING a.investor_id, a.access_count`,
      [email, codeHash, at],
    );
    return rows[0][0];
  }

  /** True when this e-mail's code is this one but has expired. */
  async holdsExpiredCode(email: string, codeHash: Buffer): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM investor.deck_access a JOIN investor.investors i ON i.id = a.investor_id
       WHERE i.email = $1 AND a.code_hash = $2 AND a.expires_at <= now()`,
      [email, codeHash],
    );
    return rows.length > 0;
  }
}
