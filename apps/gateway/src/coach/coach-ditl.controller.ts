import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import {
  type CoachDitlView,
  ditlMomentEditBodySchema,
  ditlMomentKeySchema,
  type GenerateDitlResponse,
  type IdempotencyKeyHeader,
  idempotencyKeyHeaderSchema,
  type PayloadOf,
  uuidSchema,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { IdempotencyKey, KeyedCommands, TakesIdempotencyKey } from '../http/keyed-commands';
import { type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';
import { evolutionDaysOf } from '../ditl/evolution-days';

// Each regeneration is a run of model calls and an e-mail to the client, and each client's own daily budget bounds
// only that client: this bounds what one coach (or a stolen coach token) spends across the roster. A coach
// regenerates after a client's day has changed, a few times a day.
const REGENERATIONS_PER_COACH: RateLimit = { name: 'ditl-regenerations', max: 20, windowMs: 60 * 60_000 };

/** The Manage Client dialog's Day in the Life tab: the client's plan, its regeneration and the coach's edits. */
@Roles('coach', 'admin')
@Controller('api/coach/clients/:userId/ditl')
export class CoachDitlController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(KeyedCommands) private readonly keyed: KeyedCommands,
  ) {}

  @Responds('ditl.coach-view')
  @Get()
  view(@Param('userId', new ZodPipe(uuidSchema)) userId: string): Promise<CoachDitlView> {
    return this.bus.request('ditl.coach-view', { userId });
  }

  /**
   * A new generation from the client's answers, stating their evolution's length as it is now; counts against the
   * client's daily budget and the coach's (429 past either). Once per `Idempotency-Key`: a repeat answers the first
   * generation (though it counts against the coach's hourly limit again, which is checked before the bus is reached).
   */
  @Responds('ditl.coach-regenerate')
  @Post('generations')
  @HttpCode(202)
  @Audited('client.ditl-regenerate', { type: 'client', id: { param: 'userId' } })
  @TakesIdempotencyKey()
  async regenerate(
    @CurrentUser() coach: AuthenticatedUser,
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @IdempotencyKey(new ZodPipe(idempotencyKeyHeaderSchema)) key: IdempotencyKeyHeader,
  ): Promise<GenerateDitlResponse> {
    const evolutionDays = await evolutionDaysOf(this.bus, userId);
    return this.bus.request(
      'ditl.coach-regenerate',
      { userId, evolutionDays },
      {
        admission: this.limiter.admission({ limit: REGENERATIONS_PER_COACH, subject: coach.id }),
        requestId: this.keyed.requestId(coach.id, 'ditl.coach-regenerate', key, { userId }),
      },
    );
  }

  /** The coach's text and habit for one moment, kept over every later generation until reset. */
  @Responds('ditl.coach-edit-moment')
  @Put('moments/:moment')
  @Audited('client.ditl-edit', { type: 'client', id: { param: 'userId' } })
  editMoment(
    @CurrentUser() coach: AuthenticatedUser,
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Param('moment', new ZodPipe(ditlMomentKeySchema)) moment: string,
    @Body(new ZodPipe(ditlMomentEditBodySchema)) edit: PayloadOf<'ditl.coach-edit-moment'>['edit'],
  ): Promise<CoachDitlView> {
    return this.bus.request('ditl.coach-edit-moment', { userId, moment, coachId: coach.id, edit });
  }

  /** Back to what the planner wrote. */
  @Responds('ditl.coach-reset-moment')
  @Delete('moments/:moment')
  @Audited('client.ditl-reset', { type: 'client', id: { param: 'userId' } })
  resetMoment(
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Param('moment', new ZodPipe(ditlMomentKeySchema)) moment: string,
  ): Promise<CoachDitlView> {
    return this.bus.request('ditl.coach-reset-moment', { userId, moment });
  }
}
