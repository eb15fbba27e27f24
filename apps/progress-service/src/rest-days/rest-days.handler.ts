import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf, RestDays } from '@spark/contracts';
import { RestDaysService } from './rest-days.service';

@Controller()
export class RestDaysHandler {
  constructor(private readonly restDays: RestDaysService) {}

  @MessagePattern('progress.set-rest-day')
  setRestDay(@Payload() request: PayloadOf<'progress.set-rest-day'>): Promise<RestDays> {
    return this.restDays.setRestDay(request);
  }

  @MessagePattern('progress.take-pause-day')
  takePauseDay(@Payload() request: PayloadOf<'progress.take-pause-day'>): Promise<RestDays> {
    return this.restDays.takePauseDay(request);
  }

  @MessagePattern('progress.set-pause-allowance')
  setPauseDaysAllowance(@Payload() request: PayloadOf<'progress.set-pause-allowance'>): Promise<RestDays> {
    return this.restDays.setPauseDaysAllowance(request);
  }
}
