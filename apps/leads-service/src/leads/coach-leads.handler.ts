import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { CoachLeadsService } from './coach-leads.service';

/** The coach dashboard's lead patterns; the gateway lets only coaches and admins reach them. */
@Controller()
export class CoachLeadsHandler {
  constructor(private readonly leads: CoachLeadsService) {}

  @MessagePattern('leads.list')
  list(@Payload() request: PayloadOf<'leads.list'>) {
    return this.leads.list(request);
  }

  @MessagePattern('leads.counters')
  counters() {
    return this.leads.counters();
  }

  @MessagePattern('leads.approve')
  approve(@Payload() request: PayloadOf<'leads.approve'>) {
    return this.leads.approve(request);
  }

  @MessagePattern('leads.resend')
  resend(@Payload() request: PayloadOf<'leads.resend'>) {
    return this.leads.resend(request);
  }

  @MessagePattern('leads.reject')
  reject(@Payload() request: PayloadOf<'leads.reject'>) {
    return this.leads.reject(request);
  }

  @MessagePattern('leads.add-client')
  addClient(@Payload() request: PayloadOf<'leads.add-client'>) {
    return this.leads.addClient(request);
  }
}
