import type { KeysetPosition } from '@spark/persistence';
import type { DataSource } from 'typeorm';

export interface InvestorRow {
  id: string;
  email: string;
  interest: string | null;
  created_at: Date;
  last_email_sent_at: Date | null;
  access_code: string | null;
  access_count: number | null;
  accessed_at: Date | null;
}

const selectInvestors = `
  SELECT i.id, i.email, i.interest, i.created_at, i.last_email_sent_at, a.access_code, a.access_count, a.accessed_at
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
  async page(after: KeysetPosition | undefined, limit: number): Promise<{ rows: InvestorRow[]; total: number }> {
    const rows: InvestorRow[] = await this.dataSource.query(
      `${selectInvestors}
       WHERE $1::timestamptz IS NULL OR (i.created_at, i.id) < ($1::timestamptz, $2::uuid)
       ORDER BY i.created_at DESC, i.id DESC LIMIT $3`,
      [after?.createdAt ?? null, after?.id ?? null, limit],
    );
    const [{ total }]: [{ total: number }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM investor.investors`);
    return { rows, total };
  }

  /** Stores the code unless the investor already has one; returns the code in force either way. */
  async insertAccessCode(investorId: string, accessCode: string): Promise<{ accessCode: string; created: boolean }> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO investor.deck_access (investor_id, access_code) VALUES ($1, $2) ON CONFLICT (investor_id) DO NOTHING RETURNING 1`,
      [investorId, accessCode],
    );
    const [row]: { access_code: string }[] = await this.dataSource.query(
      `SELECT access_code FROM investor.deck_access WHERE investor_id = $1`,
      [investorId],
    );
    if (!row) throw new Error(`access code of ${investorId} vanished after insert`);
    return { accessCode: row.access_code, created: inserted.length > 0 };
  }

  /** Counts one use of the code; undefined when no investor holds it. */
  async recordAccess(accessCode: string, at: Date): Promise<{ investor_id: string; access_count: number } | undefined> {
    const rows: [{ investor_id: string; access_count: number }[], number] = await this.dataSource.query(
      `UPDATE investor.deck_access SET access_count = access_count + 1, accessed_at = $2
       WHERE access_code = $1 RETURNING investor_id, access_count`,
      [accessCode, at],
    );
    return rows[0][0];
  }
}
