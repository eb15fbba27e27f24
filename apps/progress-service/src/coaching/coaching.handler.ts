import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { CoachingService } from './coaching.service';

/** Drafts for the coach; the gateway lets only coaches and admins reach them. */
@Controller()
export class CoachingHandler {
  constructor(private readonly coaching: CoachingService) {}

  @MessagePattern('progress.coach-nudge-draft')
  nudgeDraft(@Payload() request: PayloadOf<'progress.coach-nudge-draft'>) {
    return this.coaching.nudgeDraft(request);
  }

  @MessagePattern('progress.coach-weekly-check-in')
  weeklyCheckIn(@Payload() request: PayloadOf<'progress.coach-weekly-check-in'>) {
    return this.coaching.weeklyCheckIn(request);
  }
}
