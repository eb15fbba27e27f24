import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  type Actor,
  addClientLeadBodySchema,
  type CoachOverview,
  coachOverviewSchema,
  type LeadInviteBody,
  leadInviteBodySchema,
  listLeadsRequestSchema,
  type PayloadOf,
  uuidSchema,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import { CurrentActor, Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';
import { InviteApprover } from './invite-approver';

type AddClientLeadBody = Omit<PayloadOf<'leads.add-client'>, 'approval'>;

// Each invitation e-mails a sign-in link, and a new one voids the last: a script with a coach's token could otherwise
// mail any number of addresses in the product's name, or keep one person's links from ever working.
const INVITES_PER_COACH: RateLimit = { name: 'coach-invites', max: 60, windowMs: 60 * 60_000 };
const RESENDS_PER_LEAD: RateLimit = { name: 'lead-invite-resends', max: 5, windowMs: 60 * 60_000 };

/** The coach dashboard's header counts and Leads tab. Coaches and admins only. */
@Roles('coach', 'admin')
@Controller('api/coach')
export class CoachLeadsController {
  constructor(
    private readonly bus: ServiceBus,
    private readonly approver: InviteApprover,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  /** The header's lead total, the four counters and the Clients tab count, in one round trip. */
  @Responds(coachOverviewSchema)
  @Get('overview')
  async overview(): Promise<CoachOverview> {
    const [leads, clients] = await Promise.all([this.bus.request('leads.counters', {}), this.bus.request('progress.coach-count-clients', {})]);
    return { leads, clients: clients.total };
  }

  /** Non-investor leads, newest first, filtered by status and searched by e-mail or name. */
  @Responds('leads.list')
  @Get('leads')
  list(@Query(new ZodPipe(listLeadsRequestSchema)) query: PayloadOf<'leads.list'>) {
    return this.bus.request('leads.list', query);
  }

  /** The Add Client Lead modal: an approved client lead and its magic link. */
  @Responds('leads.add-client')
  @Post('leads')
  @HttpCode(201)
  @Audited('lead.add-client', { type: 'lead', id: { answer: ['lead', 'id'] }, label: { answer: ['lead', 'email'] } })
  async addClient(@CurrentActor() actor: Actor, @Body(new ZodPipe(addClientLeadBodySchema)) body: AddClientLeadBody) {
    await this.limiter.hit({ limit: INVITES_PER_COACH, subject: actor.id });
    const approval = this.approver.approve(actor, { email: body.email, role: 'client' });
    return this.bus.request('leads.add-client', { ...body, customEvolutionDays: body.customEvolutionDays ?? undefined, approval });
  }

  @Responds('leads.approve')
  @Post('leads/:leadId/approve')
  @HttpCode(200)
  @Audited('lead.approve', { type: 'lead', id: { param: 'leadId' }, label: { answer: ['lead', 'email'] } })
  async approve(
    @CurrentActor() actor: Actor,
    @Param('leadId', new ZodPipe(uuidSchema)) leadId: string,
    @Body(new ZodPipe(leadInviteBodySchema)) lead: LeadInviteBody,
  ) {
    // One e-mail however often it is clicked (docs/decisions.md): only the coach's own count applies.
    await this.limiter.hit({ limit: INVITES_PER_COACH, subject: actor.id });
    return this.bus.request('leads.approve', { leadId, actor, approval: this.approver.approve(actor, lead) }, { timeoutMs: 15_000 });
  }

  @Responds('leads.resend')
  @Post('leads/:leadId/resend')
  @HttpCode(200)
  @Audited('lead.resend', { type: 'lead', id: { param: 'leadId' }, label: { answer: ['lead', 'email'] } })
  async resend(
    @CurrentActor() actor: Actor,
    @Param('leadId', new ZodPipe(uuidSchema)) leadId: string,
    @Body(new ZodPipe(leadInviteBodySchema)) lead: LeadInviteBody,
  ) {
    await this.limiter.hit({ limit: INVITES_PER_COACH, subject: actor.id }, { limit: RESENDS_PER_LEAD, subject: leadId });
    return this.bus.request('leads.resend', { leadId, actor, approval: this.approver.approve(actor, lead) });
  }

  @Responds('leads.reject')
  @Post('leads/:leadId/reject')
  @HttpCode(200)
  @Audited('lead.reject', { type: 'lead', id: { param: 'leadId' }, label: { answer: ['email'] } })
  reject(@CurrentActor() actor: Actor, @Param('leadId', new ZodPipe(uuidSchema)) leadId: string) {
    return this.bus.request('leads.reject', { leadId, actor });
  }
}
