import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { RemindersService } from './reminders.service';

@Controller()
export class RemindersHandler {
  constructor(private readonly reminders: RemindersService) {}

  @MessagePattern('progress.get-reminders')
  get(@Payload() request: PayloadOf<'progress.get-reminders'>) {
    return this.reminders.get(request);
  }

  @MessagePattern('progress.set-reminders')
  set(@Payload() request: PayloadOf<'progress.set-reminders'>) {
    return this.reminders.set(request);
  }

  @MessagePattern('progress.set-push-subscription')
  setPushSubscription(@Payload() request: PayloadOf<'progress.set-push-subscription'>) {
    return this.reminders.setPushSubscription(request);
  }

  @MessagePattern('progress.push-subscription-gone')
  pushSubscriptionGone(@Payload() request: PayloadOf<'progress.push-subscription-gone'>) {
    return this.reminders.pushSubscriptionGone(request);
  }

  @MessagePattern('progress.unsubscribe-reminders')
  unsubscribe(@Payload() request: PayloadOf<'progress.unsubscribe-reminders'>) {
    return this.reminders.unsubscribe(request);
  }
}
