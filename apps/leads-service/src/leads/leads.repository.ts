import type { ApprovalStatus, LeadRole, PrimaryChallenge } from '@spark/contracts';
import { type JobRequest, outboxInsertForSql, outboxRowsFor } from '@spark/jobs';
import { joinBatch, type ServiceDataSource } from '@spark/persistence';

export interface LeadRow {
  id: string;
  email: string;
  role: LeadRole;
  full_name: string | null;
  company: string | null;
  interest: string | null;
  approval_status: ApprovalStatus;
  primary_challenge: PrimaryChallenge | null;
  user_created: boolean;
  created_at: Date;
}

export interface NewLead {
  id: string;
  email: string;
  role: LeadRole;
  interest: string | null;
  challengeTokenHash: Buffer;
  createdAt: Date;
}

const columns = `id, email, role, full_name, company, interest, approval_status, primary_challenge, user_created, created_at`;

export class LeadsRepository {
  constructor(private readonly dataSource: ServiceDataSource) {}

  /**
   * Inserts the lead and its jobs' outbox rows atomically. Returns undefined, and writes nothing, when the e-mail
   * already has a lead. Leads submitted together (a group of commands in one transaction) share one statement.
   */
  insertWithJobs(lead: NewLead, jobs: readonly JobRequest[]): Promise<LeadRow | undefined> {
    return joinBatch(this.insertMany, { lead, jobs });
  }

  /**
   * ONE statement for any number of leads, in one round trip; the counter trigger runs once for all of them. Of two
   * leads with one e-mail, the first is written. Prepared: planning this statement (three tables, the counter
   * trigger) costs PostgreSQL about as much as running it.
   */
  private readonly insertMany = async (batch: readonly { lead: NewLead; jobs: readonly JobRequest[] }[]): Promise<(LeadRow | undefined)[]> => {
    const leads = batch.map(({ lead }) => lead);
    const rows = await this.dataSource.preparedQuery<LeadRow>(
      'leads-insert-many-with-jobs',
      `WITH lead AS (
         INSERT INTO leads.leads (id, email, role, interest, challenge_token_hash, created_at)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bytea[], $6::timestamptz[])
           AS submitted(id, email, role, interest, challenge_token_hash, created_at)
         ON CONFLICT (email) DO NOTHING
         RETURNING ${columns}
       ), jobs AS (
         ${outboxInsertForSql('leads', 7, 'lead')}
       )
       SELECT * FROM lead`,
      [
        leads.map((lead) => lead.id),
        leads.map((lead) => lead.email),
        leads.map((lead) => lead.role),
        leads.map((lead) => lead.interest),
        leads.map((lead) => lead.challengeTokenHash),
        leads.map((lead) => lead.createdAt),
        ...outboxRowsFor(batch.map(({ lead, jobs }) => ({ id: lead.id, jobs }))),
      ],
    );
    const written = new Map(rows.map((row) => [row.id, row]));
    return leads.map((lead) => written.get(lead.id));
  };

  /** The lead under `email`, stored as `emailSchema` normalised it. */
  async findByEmail(email: string): Promise<LeadRow | undefined> {
    const rows: LeadRow[] = await this.dataSource.query(`SELECT ${columns} FROM leads.leads WHERE email = $1`, [email]);
    return rows[0];
  }

  async setPrimaryChallenge(challengeTokenHash: Buffer, challenge: PrimaryChallenge): Promise<LeadRow | undefined> {
    const rows: [LeadRow[], number] = await this.dataSource.query(
      `UPDATE leads.leads SET primary_challenge = $2 WHERE challenge_token_hash = $1 RETURNING ${columns}`,
      [challengeTokenHash, challenge],
    );
    return rows[0][0];
  }
}
