import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { CoachClientsService } from './coach-clients.service';

/** The coach dashboard's client patterns; the gateway lets only coaches and admins reach them. */
@Controller()
export class CoachClientsHandler {
  constructor(private readonly clients: CoachClientsService) {}

  @MessagePattern('progress.coach-list-clients')
  list(@Payload() request: PayloadOf<'progress.coach-list-clients'>) {
    return this.clients.list(request);
  }

  @MessagePattern('progress.coach-count-clients')
  count() {
    return this.clients.count();
  }

  @MessagePattern('progress.coach-client')
  detail(@Payload() request: PayloadOf<'progress.coach-client'>) {
    return this.clients.detail(request);
  }

  @MessagePattern('progress.coach-update-client')
  update(@Payload() request: PayloadOf<'progress.coach-update-client'>) {
    return this.clients.update(request);
  }

  @MessagePattern('progress.preset-evolution')
  presetEvolution(@Payload() request: PayloadOf<'progress.preset-evolution'>) {
    return this.clients.presetEvolution(request);
  }
}
