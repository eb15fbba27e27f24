import { Controller, Get, Inject, Param } from '@nestjs/common';
import { COACHING_DRAFT_TIMEOUT_MS, uuidSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { SignedSparks } from '../sparks/signed-sparks';
import { Responds } from '../docs/responds.decorator';

// Each draft is up to two model calls, whichever route asks. A coach opens one draft per client, and reading and
// editing each takes minutes: a Friday of check-ins for a whole roster stays well under one a minute. The limit is
// what bounds the model bill when a coach's token is stolen.
const DRAFTS_PER_COACH: RateLimit = { name: 'coaching-drafts', max: 60, windowMs: 60 * 60_000 };

/**
 * Drafts the coach reads and edits: nothing here sends anything to the client. The coach sends a draft
 * with `POST /api/progress/clients/:userId/notes`, like any note (docs/coaching.md).
 */
@Roles('coach', 'admin')
@Controller('api/coach/clients/:userId')
export class CoachingController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(SignedSparks) private readonly signed: SignedSparks,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  /** The bus request's options: the drafts' deadline, and their count against the coach's limit. */
  private draftOptions(coach: AuthenticatedUser) {
    return { timeoutMs: COACHING_DRAFT_TIMEOUT_MS, admission: this.limiter.admission({ limit: DRAFTS_PER_COACH, subject: coach.id }) };
  }

  /** A nudge naming what happened: days since the last spark, the streak that ended, the goal and challenge. */
  @Responds('progress.coach-nudge-draft')
  @Get('nudge-draft')
  nudgeDraft(@CurrentUser() coach: AuthenticatedUser, @Param('userId', new ZodPipe(uuidSchema)) userId: string) {
    return this.bus.request('progress.coach-nudge-draft', { userId }, this.draftOptions(coach));
  }

  /** The Friday check-in: the week's sparks with signed thumbnails, streak, what slipped and what went well. */
  @Responds('progress.coach-weekly-check-in')
  @Get('weekly-check-in')
  async weeklyCheckIn(@CurrentUser() coach: AuthenticatedUser, @Param('userId', new ZodPipe(uuidSchema)) userId: string) {
    const checkIn = await this.bus.request('progress.coach-weekly-check-in', { userId }, this.draftOptions(coach));
    return { ...checkIn, sparks: await Promise.all(checkIn.sparks.map((spark) => this.signed.sign(spark))) };
  }
}
