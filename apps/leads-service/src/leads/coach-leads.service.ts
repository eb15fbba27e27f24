import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Actor,
  type AddClientLeadResponse,
  type InviteApproval,
  type InvitedRole,
  invitedRoleOf,
  type InviteResponse,
  type Lead,
  type LeadCounters,
  type LeadInviteResponse,
  type LeadPage,
  type PayloadOf,
  type RequestOf,
  type ResponseOf,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { decodeCursor, pageOf, positionOfRow } from '@spark/persistence';
import type { CoachLeadsRepository } from './coach-leads.repository';
import type { LeadRow } from './leads.repository';
import { toLead } from './leads.service';

/** The two calls the coach flows make to other services (the bus in production). */
export interface CoachLeadsPorts {
  invite(request: RequestOf<'auth.invite'>): Promise<InviteResponse>;
  presetEvolution(request: RequestOf<'progress.preset-evolution'>): Promise<ResponseOf<'progress.preset-evolution'>>;
}

export interface CoachLeadsOptions {
  /** How long a concurrent approve waits for the one that holds the claim. */
  waitForClaimMs: number;
}

const notFound = () => new DomainError('NOT_FOUND', 'Lead not found.');
/** 409 unless the approval names this address and this account's role: the lead changed since the coach saw it. */
function assertApprovalOf(approval: InviteApproval, email: string, role: InvitedRole): void {
  if (approval.email !== email || approval.role !== role) {
    throw new DomainError('CONFLICT', 'This lead is not the one you approved. Please refresh the page.');
  }
}

type LeadAction = 'approve' | 'resend' | 'reject';

/**
 * The invitation an approve or an add makes, named so that pressing again after an answer lost past the
 * auth-service's commit (the lead's own change rolled back) answers the first invitation instead of e-mailing a
 * second link that voids it. An approve is its lead's; an added client's lead is new with each press, so that
 * invitation is the person's one from Add Client Lead (the auth-service keys it to the account of the address).
 * A resend has none: each press is meant to send a fresh link.
 */
const invitationKeys = {
  approve: (leadId: string) => `lead:${leadId}`,
  addClient: 'add-client',
};

/**
 * Approving a coach lead makes its person a coach, who reads every client's photos and notes: only an
 * admin may decide that. A coach may act on client leads.
 */
function assertMayActOn(lead: Pick<LeadRow, 'role'>, actor: Actor, action: LeadAction): void {
  if (lead.role === 'coach' && actor.role !== 'admin') throw new DomainError('FORBIDDEN', `Only an admin can ${action} a coach lead.`);
}

export class CoachLeadsService {
  constructor(
    private readonly leads: CoachLeadsRepository,
    private readonly ports: CoachLeadsPorts,
    private readonly options: CoachLeadsOptions = { waitForClaimMs: 8000 },
  ) {}

  async list(request: PayloadOf<'leads.list'>): Promise<LeadPage> {
    const rows = await this.leads.list({
      status: request.status,
      search: request.search || undefined,
      after: decodeCursor(request.cursor),
      limit: request.limit,
    });
    const page = pageOf(rows, request.limit, positionOfRow);
    return { items: page.items.map(toLead), nextCursor: page.nextCursor };
  }

  async counters(): Promise<LeadCounters> {
    const counters: LeadCounters = { total: 0, pending: 0, approved: 0, activeUsers: 0, rejected: 0 };
    for (const row of await this.leads.counters()) {
      const count = Number(row.count);
      counters.total += count;
      if (row.user_created) counters.activeUsers += count;
      if (row.approval_status === 'pending') counters.pending += count;
      else if (row.approval_status === 'approved') counters.approved += count;
      else if (row.approval_status === 'rejected') counters.rejected += count;
    }
    return counters;
  }

  /**
   * Invites the lead's person exactly once however many clicks or coaches race: one conditional
   * UPDATE claims the lead, the claimant invites, the others wait for its outcome.
   */
  async approve({ leadId, actor, approval }: PayloadOf<'leads.approve'>): Promise<LeadInviteResponse> {
    await this.authorize(leadId, actor, 'approve', approval);
    const deadline = Date.now() + this.options.waitForClaimMs;
    for (;;) {
      const claimed = await this.leads.claimInvite(leadId, 'pending');
      if (claimed) return this.inviteClaimed(claimed, approval, invitationKeys.approve(claimed.id));
      const lead = await this.leads.find(leadId);
      if (!lead) throw notFound();
      if (lead.user_created) return { lead: toLead(lead), developmentMode: false, alreadyApproved: true };
      if (lead.approval_status === 'rejected') throw new DomainError('CONFLICT', 'This lead was rejected.');
      if (lead.approval_status === 'approved' && !lead.claimed) {
        throw new DomainError('CONFLICT', 'This lead is approved already; resend its magic link instead.');
      }
      if (Date.now() > deadline) throw new DomainError('CONFLICT', 'This lead is being approved by someone else. Please refresh.');
      await sleep(100);
    }
  }

  /** Sends a new magic link to an approved lead whose invite failed, creating its user (product spec, Leads tab). */
  async resend({ leadId, actor, approval }: PayloadOf<'leads.resend'>): Promise<LeadInviteResponse> {
    await this.authorize(leadId, actor, 'resend', approval);
    const claimed = await this.leads.claimInvite(leadId, 'approved');
    if (claimed) return this.inviteClaimed(claimed, approval);
    const lead = await this.leads.find(leadId);
    if (!lead) throw notFound();
    if (lead.user_created) throw new DomainError('CONFLICT', 'This lead already has an account: they sign in with their e-mail address.');
    if (lead.approval_status !== 'approved') throw new DomainError('CONFLICT', 'Only approved leads can be sent a magic link again.');
    throw new DomainError('CONFLICT', 'A magic link for this lead is being sent right now.');
  }

  async reject({ leadId, actor }: PayloadOf<'leads.reject'>): Promise<Lead> {
    await this.authorize(leadId, actor, 'reject');
    const rejected = await this.leads.reject(leadId);
    if (rejected) return toLead(rejected);
    const lead = await this.leads.find(leadId);
    if (!lead) throw notFound();
    throw new DomainError('CONFLICT', 'This lead already has an account and cannot be rejected.');
  }

  /** The Add Client Lead modal: an approved client lead, its custom cycle length, then the invite. */
  async addClient(request: PayloadOf<'leads.add-client'>): Promise<AddClientLeadResponse> {
    assertApprovalOf(request.approval, request.email, 'client');
    const row = await this.leads.insertClaimedClientLead({ id: randomUUID(), email: request.email, createdAt: new Date() });
    if (!row) throw new DomainError('LEAD_EXISTS', 'Failed to create lead. Email may already exist.');
    if (request.customEvolutionDays) {
      // Without its custom length the lead would silently get 90 days: undo and report instead.
      await this.ports.presetEvolution({ email: request.email, customEvolutionDays: request.customEvolutionDays }).catch(async (error: unknown) => {
        await this.leads.delete(row.id);
        throw error;
      });
    }
    try {
      const invited = await this.inviteClaimed(row, request.approval, invitationKeys.addClient);
      return { lead: invited.lead, inviteSent: true, developmentMode: invited.developmentMode, magicLink: invited.magicLink };
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'ACCOUNT_ROLE_DIFFERS')) return { lead: toLead(row), inviteSent: false, developmentMode: false };
      // Resend could never invite this lead: refuse it rather than list a team member as a client.
      await this.leads.delete(row.id);
      throw error;
    }
  }

  /**
   * 404 for an unknown (or investor) lead, 403 when the actor's role may not act on it, 409 when the approval names
   * another address or role than the lead's (neither ever changes).
   */
  private async authorize(leadId: string, actor: Actor, action: LeadAction, approval?: InviteApproval): Promise<void> {
    const lead = await this.leads.find(leadId);
    if (!lead) throw notFound();
    assertMayActOn(lead, actor, action);
    if (approval) assertApprovalOf(approval, lead.email, invitedRoleOf(lead.role));
  }

  private async inviteClaimed(row: LeadRow, approval: InviteApproval, invitationKey?: string): Promise<LeadInviteResponse> {
    let invited: InviteResponse;
    try {
      invited = await this.ports.invite({
        email: row.email,
        role: invitedRoleOf(row.role),
        fullName: row.full_name ?? undefined,
        next: row.role === 'coach' ? undefined : 'ditl-welcome',
        approval,
        invitationKey,
      });
    } catch (error) {
      await this.leads.releaseClaim(row.id);
      throw error;
    }
    const lead = await this.leads.completeInvite(row.id);
    return { lead: toLead(lead), developmentMode: invited.developmentMode, magicLink: invited.magicLink, alreadyApproved: false };
  }
}
