import { Body, Controller, HttpCode, Patch, Post } from '@nestjs/common';
import { createLeadRequestSchema, type PayloadOf, setChallengeRequestSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import { ZodPipe } from '../http/zod-body.pipe';
import { Public } from '../auth/auth.decorators';

@Public()
@Controller('api/leads')
export class LeadsController {
  constructor(private readonly bus: ServiceBus) {}

  /** The interest form. Public. */
  @Post()
  @HttpCode(201)
  create(@Body(new ZodPipe(createLeadRequestSchema)) body: PayloadOf<'leads.create'>) {
    return this.bus.request('leads.create', body);
  }

  /** The thank-you page's challenge answer, authorised by the lead-scoped token. Public. */
  @Patch('challenge')
  setChallenge(@Body(new ZodPipe(setChallengeRequestSchema)) body: PayloadOf<'leads.set-challenge'>) {
    return this.bus.request('leads.set-challenge', body);
  }
}
