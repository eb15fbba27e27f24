import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { LeadsService } from './leads.service';

@Controller()
export class LeadsHandler {
  constructor(private readonly leads: LeadsService) {}

  @MessagePattern('leads.create')
  create(@Payload() request: PayloadOf<'leads.create'>) {
    return this.leads.create(request);
  }

  @MessagePattern('leads.set-challenge')
  setPrimaryChallenge(@Payload() request: PayloadOf<'leads.set-challenge'>) {
    return this.leads.setPrimaryChallenge(request);
  }
}
