import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { OnboardingService } from './onboarding.service';

@Controller()
export class OnboardingHandler {
  constructor(private readonly onboarding: OnboardingService) {}

  @MessagePattern('progress.complete-onboarding')
  complete(@Payload() request: PayloadOf<'progress.complete-onboarding'>) {
    return this.onboarding.complete(request);
  }
}
