import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { CreateLeadResponse, Lead, PayloadOf } from '@spark/contracts';
import type { JobRequest, OutboxRelay } from '@spark/jobs';
import { DomainError } from '@spark/errors';
import type { LeadRow, LeadsRepository } from './leads.repository';

const hashToken = (token: string) => hash('sha256', token, 'buffer');

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    fullName: row.full_name,
    company: row.company,
    interest: row.interest,
    approvalStatus: row.approval_status,
    primaryChallenge: row.primary_challenge,
    userCreated: row.user_created,
    createdAt: row.created_at.toISOString(),
  };
}

export class LeadsService {
  constructor(
    private readonly leads: LeadsRepository,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
  ) {}

  /** Records an expression of interest and queues the confirmation and the team alert with it. */
  async create(request: PayloadOf<'leads.create'>): Promise<CreateLeadResponse> {
    const challengeToken = randomBytes(32).toString('base64url');
    const lead = {
      id: randomUUID(),
      email: request.email,
      role: request.role,
      interest: request.interest ?? null,
      challengeTokenHash: hashToken(challengeToken),
      createdAt: new Date(),
    };
    const submitted = { leadId: lead.id, email: lead.email, role: lead.role, interest: lead.interest, submission: request.submission };
    const jobs: JobRequest[] = [
      { queue: 'mail', name: 'lead-confirmation', data: submitted },
      { queue: 'mail', name: 'lead-alert', data: { ...submitted, createdAt: lead.createdAt.toISOString() } },
    ];
    const row = await this.leads.insertWithJobs(lead, jobs);
    if (!row) throw new DomainError('LEAD_EXISTS', 'This email has already expressed interest.');
    this.outbox.kick();
    return { lead: toLead(row), challengeToken };
  }

  /** Only the holder of the token handed out with the lead may answer its challenge question. */
  async setPrimaryChallenge(request: PayloadOf<'leads.set-challenge'>): Promise<Lead> {
    const row = await this.leads.setPrimaryChallenge(hashToken(request.token), request.primaryChallenge);
    if (!row) throw new DomainError('FORBIDDEN', 'This link cannot update that answer.');
    return toLead(row);
  }
}
