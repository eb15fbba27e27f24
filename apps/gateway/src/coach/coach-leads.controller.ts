import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { addClientLeadBodySchema, type CoachOverview, listLeadsRequestSchema, type PayloadOf, uuidSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { ZodPipe } from '../http/zod-body.pipe';

type AddClientLeadBody = Omit<PayloadOf<'leads.add-client'>, 'coachId'>;

/** The coach dashboard's header counts and Leads tab. Coaches and admins only. */
@Roles('coach', 'admin')
@Controller('api/coach')
export class CoachLeadsController {
  constructor(private readonly bus: ServiceBus) {}

  /** The header's lead total, the four counters and the Clients tab count, in one round trip. */
  @Get('overview')
  async overview(): Promise<CoachOverview> {
    const [leads, clients] = await Promise.all([this.bus.request('leads.counters', {}), this.bus.request('progress.coach-count-clients', {})]);
    return { leads, clients: clients.total };
  }

  /** Non-investor leads, newest first, filtered by status and searched by e-mail or name. */
  @Get('leads')
  list(@Query(new ZodPipe(listLeadsRequestSchema)) query: PayloadOf<'leads.list'>) {
    return this.bus.request('leads.list', query);
  }

  /** The Add Client Lead modal: an approved client lead and its magic link. */
  @Post('leads')
  @HttpCode(201)
  addClient(@CurrentUser() coach: AuthenticatedUser, @Body(new ZodPipe(addClientLeadBodySchema)) body: AddClientLeadBody) {
    return this.bus.request('leads.add-client', { ...body, customEvolutionDays: body.customEvolutionDays ?? undefined, coachId: coach.id });
  }

  @Post('leads/:leadId/approve')
  @HttpCode(200)
  approve(@CurrentUser() coach: AuthenticatedUser, @Param('leadId', new ZodPipe(uuidSchema)) leadId: string) {
    return this.bus.request('leads.approve', { leadId, coachId: coach.id }, { timeoutMs: 15_000 });
  }

  @Post('leads/:leadId/resend')
  @HttpCode(200)
  resend(@CurrentUser() coach: AuthenticatedUser, @Param('leadId', new ZodPipe(uuidSchema)) leadId: string) {
    return this.bus.request('leads.resend', { leadId, coachId: coach.id });
  }

  @Post('leads/:leadId/reject')
  @HttpCode(200)
  reject(@CurrentUser() coach: AuthenticatedUser, @Param('leadId', new ZodPipe(uuidSchema)) leadId: string) {
    return this.bus.request('leads.reject', { leadId, coachId: coach.id });
  }
}
