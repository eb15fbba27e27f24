import { type PayloadOf, pushEndpointAllowed, type ReminderSettings } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { RemindersRepository } from './reminders.repository';

const notOnboarded = () => new DomainError('CONFLICT', 'Finish onboarding first: reminders follow your evolution.');

/** A client's reminder settings and push subscription; the tick that sends reminders is `reminder-tick.ts`. */
export class RemindersService {
  constructor(
    private readonly repository: RemindersRepository,
    private readonly pushServiceOrigins: readonly string[],
  ) {}

  get({ userId }: PayloadOf<'progress.get-reminders'>): Promise<ReminderSettings> {
    return this.repository.settings(userId);
  }

  async set({ userId, ...settings }: PayloadOf<'progress.set-reminders'>): Promise<ReminderSettings> {
    const saved = await this.repository.update(userId, settings);
    if (!saved) throw notOnboarded();
    return saved;
  }

  async setPushSubscription({ userId, subscription }: PayloadOf<'progress.set-push-subscription'>): Promise<ReminderSettings> {
    if (subscription && !pushEndpointAllowed(subscription.endpoint, this.pushServiceOrigins)) {
      throw new DomainError('VALIDATION_FAILED', 'This browser’s push service is not supported.', {
        fieldErrors: { 'subscription.endpoint': ['Not a known push service'] },
      });
    }
    const saved = await this.repository.setPushSubscription(userId, subscription);
    if (!saved) throw notOnboarded();
    return saved;
  }

  async pushSubscriptionGone({ userId, endpoint }: PayloadOf<'progress.push-subscription-gone'>): Promise<{ forgotten: boolean }> {
    return { forgotten: await this.repository.forgetPushSubscription(userId, endpoint) };
  }

  async unsubscribe({ token }: PayloadOf<'progress.unsubscribe-reminders'>): Promise<{ unsubscribed: true }> {
    if (!(await this.repository.unsubscribe(token))) throw new DomainError('NOT_FOUND', 'This unsubscribe link is not valid.');
    return { unsubscribed: true };
  }
}
