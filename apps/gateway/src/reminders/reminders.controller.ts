import { Body, Controller, Get, HttpCode, Inject, Post, Put, Query, Req } from '@nestjs/common';
import {
  type PayloadOf,
  type PushConfig,
  pushConfigSchema,
  type ReminderSettings,
  type SetPushSubscriptionBody,
  setPushSubscriptionBodySchema,
  unsubscribeRemindersRequestSchema,
  type UpdateReminderSettingsBody,
  updateReminderSettingsBodySchema,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Public } from '../auth/auth.decorators';
import { ipSubject, type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ONE_CLICK_UNSUBSCRIBE_PATH } from '../http/state-changing-requests';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';

export const VAPID_PUBLIC_KEY = Symbol('vapid-public-key');
const UNSUBSCRIBES_PER_IP: RateLimit = { name: 'reminders-unsubscribe', max: 30, windowMs: 10 * 60_000 };

/** Daily reminders (docs/reminders.md): the client's settings and device, and the e-mail's one-click unsubscribe. */
@Controller()
export class RemindersController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(VAPID_PUBLIC_KEY) private readonly vapidPublicKey: string | null,
  ) {}

  @Responds('progress.get-reminders')
  @Get('api/progress/me/reminders')
  settings(@CurrentUser() user: AuthenticatedUser): Promise<ReminderSettings> {
    return this.bus.request('progress.get-reminders', { userId: user.id });
  }

  /** On or off, the local time, quiet hours: 400 when the time falls in the quiet hours, 409 before onboarding. */
  @Responds('progress.set-reminders')
  @Put('api/progress/me/reminders')
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(updateReminderSettingsBodySchema)) body: UpdateReminderSettingsBody,
  ): Promise<ReminderSettings> {
    return this.bus.request('progress.set-reminders', { ...body, userId: user.id });
  }

  /** This device's push subscription (null: reminders by e-mail); 400 for an endpoint outside the known push services. */
  @Responds('progress.set-push-subscription')
  @Put('api/progress/me/push-subscription')
  setPushSubscription(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(setPushSubscriptionBodySchema)) body: SetPushSubscriptionBody,
  ): Promise<ReminderSettings> {
    return this.bus.request('progress.set-push-subscription', { ...body, userId: user.id });
  }

  /** The VAPID public key a browser subscribes with; null when push is not set up here. */
  @Responds(pushConfigSchema)
  @Public()
  @Get('api/reminders/push-config')
  pushConfig(): PushConfig {
    return { vapidPublicKey: this.vapidPublicKey };
  }

  /**
   * The e-mail's unsubscribe address. Mail clients POST `List-Unsubscribe=One-Click` to it (RFC 8058); the
   * /reminders/off page posts without a body. The token in the address is the credential.
   */
  @Responds('progress.unsubscribe-reminders')
  @Public()
  @Post(ONE_CLICK_UNSUBSCRIBE_PATH.slice(1))
  @HttpCode(200)
  async unsubscribe(@Req() request: FastifyRequest, @Query(new ZodPipe(unsubscribeRemindersRequestSchema)) query: PayloadOf<'progress.unsubscribe-reminders'>) {
    const admission = this.limiter.admission({ limit: UNSUBSCRIBES_PER_IP, subject: ipSubject(request.ip) });
    return this.bus.request('progress.unsubscribe-reminders', query, { admission });
  }
}
