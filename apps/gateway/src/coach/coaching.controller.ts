import { Controller, Get, Inject, Param } from '@nestjs/common';
import { COACHING_DRAFT_TIMEOUT_MS, uuidSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import { Roles } from '../auth/auth.decorators';
import { ZodPipe } from '../http/zod-body.pipe';
import { SignedSparks } from '../sparks/signed-sparks';
import { Responds } from '../docs/responds.decorator';

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
  ) {}

  /** A nudge naming what happened: days since the last spark, the streak that ended, the goal and challenge. */
  @Responds('progress.coach-nudge-draft')
  @Get('nudge-draft')
  nudgeDraft(@Param('userId', new ZodPipe(uuidSchema)) userId: string) {
    return this.bus.request('progress.coach-nudge-draft', { userId }, { timeoutMs: COACHING_DRAFT_TIMEOUT_MS });
  }

  /** The Friday check-in: the week's sparks with signed thumbnails, streak, what slipped and what went well. */
  @Responds('progress.coach-weekly-check-in')
  @Get('weekly-check-in')
  async weeklyCheckIn(@Param('userId', new ZodPipe(uuidSchema)) userId: string) {
    const checkIn = await this.bus.request('progress.coach-weekly-check-in', { userId }, { timeoutMs: COACHING_DRAFT_TIMEOUT_MS });
    return { ...checkIn, sparks: await Promise.all(checkIn.sparks.map((spark) => this.signed.sign(spark))) };
  }
}
