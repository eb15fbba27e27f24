import { Body, Controller, HttpCode, Inject, Patch, Post, Req } from '@nestjs/common';
import { createLeadRequestSchema, type PayloadOf, setChallengeRequestSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import { ipSubject, mailboxSubject, networkSubject, type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { Public } from '../auth/auth.decorators';
import { Responds } from '../docs/responds.decorator';
import { LeadWitness } from './lead-witness';

// Each lead e-mails the address typed and the team. A household, an office or a coach's workshop behind
// one address signs up a handful of people; a script signs up thousands.
const LEADS_PER_IP: RateLimit = { name: 'leads-per-ip', max: 30, windowMs: 60 * 60_000 };
// The same sender rotating through the addresses of one allocation (an IPv6 /48 holds 65 536 /64s): a campus or a
// company network signs up dozens an hour, not thousands.
const LEADS_PER_NETWORK: RateLimit = { name: 'leads-per-network', max: 100, windowMs: 60 * 60_000 };
// One inbox gets one confirmation per lead; plus-addresses are the same inbox. A person retrying the same
// address gets "already on the list" long before this.
const LEADS_PER_MAILBOX: RateLimit = { name: 'leads-per-mailbox', max: 5, windowMs: 24 * 60 * 60_000 };
// One answer per lead, perhaps changed once or twice; made-up tokens each cost the leads-service a recorded command.
const CHALLENGES_PER_IP: RateLimit = { name: 'challenge-per-ip', max: 30, windowMs: 10 * 60_000 };

@Public()
@Controller('api/leads')
export class LeadsController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    private readonly witness: LeadWitness,
  ) {}

  /** The interest form. Public. */
  @Responds('leads.create')
  @Post()
  @HttpCode(201)
  async create(@Req() request: FastifyRequest, @Body(new ZodPipe(createLeadRequestSchema)) body: Omit<PayloadOf<'leads.create'>, 'submission'>) {
    const admission = this.limiter.admission(
      { limit: LEADS_PER_IP, subject: ipSubject(request.ip) },
      { limit: LEADS_PER_NETWORK, subject: networkSubject(request.ip) },
      { limit: LEADS_PER_MAILBOX, subject: mailboxSubject(body.email) },
    );
    return this.bus.request('leads.create', this.witness.witness(body), { admission });
  }

  /** The thank-you page's challenge answer, authorised by the lead-scoped token. Public. */
  @Responds('leads.set-challenge')
  @Patch('challenge')
  setChallenge(@Req() request: FastifyRequest, @Body(new ZodPipe(setChallengeRequestSchema)) body: PayloadOf<'leads.set-challenge'>) {
    return this.bus.request('leads.set-challenge', body, { admission: this.limiter.admission({ limit: CHALLENGES_PER_IP, subject: ipSubject(request.ip) }) });
  }
}
