import type { ApprovalStatus, LeadRole, PrimaryChallenge } from '@spark/contracts';
import { type JobRequest, outboxInsertSql, outboxRows } from '@spark/jobs';
import type { ServiceDataSource } from '@spark/persistence';

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
   * Inserts the lead and its jobs' outbox rows in ONE statement (so atomically, in one round
   * trip). Returns undefined, and writes nothing, when the e-mail already has a lead. Prepared: planning this
   * statement (three tables, the counter trigger) cost PostgreSQL about as much as running it.
   */
  async insertWithJobs(lead: NewLead, jobs: readonly JobRequest[]): Promise<LeadRow | undefined> {
    const rows = await this.dataSource.preparedQuery<LeadRow>(
      'leads-insert-with-jobs',
      `WITH lead AS (
         INSERT INTO leads.leads (id, email, role, interest, challenge_token_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (email) DO NOTHING
         RETURNING ${columns}
       ), jobs AS (
         ${outboxInsertSql('leads', 7)} WHERE EXISTS (SELECT 1 FROM lead)
       )
       SELECT * FROM lead`,
      [lead.id, lead.email, lead.role, lead.interest, lead.challengeTokenHash, lead.createdAt, ...outboxRows(jobs)],
    );
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
