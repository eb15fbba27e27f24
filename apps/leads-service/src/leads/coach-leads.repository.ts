import type { LeadStatusFilter } from '@spark/contracts';
import { escapeLike, type Keyed, type KeysetPosition, rowsToRead, type ServiceDataSource } from '@spark/persistence';
import type { LeadRow } from './leads.repository';

export interface LeadListQuery {
  status: LeadStatusFilter;
  search?: string;
  after?: KeysetPosition;
  limit: number;
}

export interface CounterRow {
  approval_status: string;
  user_created: boolean;
  count: string;
}

const columns = `id, email, role, full_name, company, interest, approval_status, primary_challenge, user_created, created_at`;
// A claim older than this belongs to a request that died mid-invite; the next click may take it over.
const CLAIM_TIMEOUT = `interval '60 seconds'`;

const statusCondition: Record<LeadStatusFilter, string> = {
  all: '',
  pending: `AND approval_status = 'pending'`,
  approved: `AND approval_status = 'approved'`,
  active: `AND user_created`,
  rejected: `AND approval_status = 'rejected'`,
};

/** The coach's reads and state changes on leads; investor leads are outside every query here. */
export class CoachLeadsRepository {
  constructor(private readonly dataSource: ServiceDataSource) {}

  async list(query: LeadListQuery): Promise<Keyed<LeadRow>[]> {
    const rows = rowsToRead(query.limit);
    const parameters: unknown[] = [];
    let conditions = statusCondition[query.status];
    if (query.search) {
      parameters.push(`%${escapeLike(query.search.toLowerCase())}%`);
      conditions += ` AND (email || ' ' || coalesce(full_name, '')) ILIKE $${parameters.length}`;
    }
    if (query.after) {
      parameters.push(query.after.key, query.after.id);
      conditions += ` AND (created_at, id) < ($${parameters.length - 1}::timestamptz, $${parameters.length}::uuid)`;
    }
    // Prepared, one statement per shape and page size: the dashboard's most frequent read, planned once per connection.
    const name = `coach-leads-${query.status}${query.search ? '-search' : ''}${query.after ? '-after' : ''}-${rows}`;
    return this.dataSource.preparedQuery<Keyed<LeadRow>>(
      name,
      `SELECT ${columns}, created_at::text AS cursor_at FROM leads.leads
       WHERE role <> 'investor' ${conditions}
       ORDER BY created_at DESC, id DESC LIMIT ${rows}`,
      parameters,
    );
  }

  /** Non-investor leads per status and account; a sum over the trigger-kept shard rows, not a count of leads. */
  counters(): Promise<CounterRow[]> {
    return this.dataSource.preparedQuery<CounterRow>(
      'coach-lead-counters',
      `SELECT approval_status, user_created, sum(count) AS count FROM leads.lead_counters GROUP BY approval_status, user_created`,
      [],
    );
  }

  async find(id: string): Promise<(LeadRow & { claimed: boolean }) | undefined> {
    const rows: (LeadRow & { claimed: boolean })[] = await this.dataSource.query(
      `SELECT ${columns}, (invite_claimed_at IS NOT NULL AND invite_claimed_at > now() - ${CLAIM_TIMEOUT}) AS claimed
       FROM leads.leads WHERE id = $1 AND role <> 'investor'`,
      [id],
    );
    return rows[0];
  }

  /**
   * Takes the right to run the invite for one lead in one conditional UPDATE: of any number of
   * concurrent clicks, exactly one gets the row back. Never for a lead whose account was made: its person signs in
   * themselves, and an invite would make the account again after an erasure deleted it while the lead waited for
   * its own part.
   */
  async claimInvite(id: string, from: 'pending' | 'approved'): Promise<LeadRow | undefined> {
    const rows: [LeadRow[], number] = await this.dataSource.query(
      `UPDATE leads.leads SET invite_claimed_at = now()
       WHERE id = $1 AND role <> 'investor' AND approval_status = $2 AND NOT user_created
         AND (invite_claimed_at IS NULL OR invite_claimed_at <= now() - ${CLAIM_TIMEOUT})
       RETURNING ${columns}`,
      [id, from],
    );
    return rows[0][0];
  }

  async completeInvite(id: string): Promise<LeadRow> {
    const rows: [LeadRow[], number] = await this.dataSource.query(
      `UPDATE leads.leads SET approval_status = 'approved', user_created = true, invite_claimed_at = NULL
       WHERE id = $1 RETURNING ${columns}`,
      [id],
    );
    return rows[0][0] as LeadRow;
  }

  async releaseClaim(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE leads.leads SET invite_claimed_at = NULL WHERE id = $1`, [id]);
  }

  async reject(id: string): Promise<LeadRow | undefined> {
    const rows: [LeadRow[], number] = await this.dataSource.query(
      `UPDATE leads.leads SET approval_status = 'rejected'
       WHERE id = $1 AND role <> 'investor' AND NOT user_created
         AND (invite_claimed_at IS NULL OR invite_claimed_at <= now() - ${CLAIM_TIMEOUT})
       RETURNING ${columns}`,
      [id],
    );
    return rows[0][0];
  }

  /** A coach's client lead: approved at once and claimed for its invite. Undefined when the e-mail exists. */
  async insertClaimedClientLead(lead: { id: string; email: string; createdAt: Date }): Promise<LeadRow | undefined> {
    const rows: LeadRow[] = await this.dataSource.query(
      `INSERT INTO leads.leads (id, email, role, approval_status, invite_claimed_at, created_at)
       VALUES ($1, $2, 'client', 'approved', now(), $3)
       ON CONFLICT (email) DO NOTHING RETURNING ${columns}`,
      [lead.id, lead.email, lead.createdAt],
    );
    return rows[0];
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM leads.leads WHERE id = $1`, [id]);
  }
}
