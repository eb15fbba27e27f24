import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import {
  coachNoteBodySchema,
  type IdempotencyKeyHeader,
  idempotencyKeyHeaderSchema,
  type PayloadOf,
  pauseDayBodySchema,
  privateNoteBodySchema,
  privateNotesQuerySchema,
  restDayBodySchema,
  sparkListQuerySchema,
  uuidSchema,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { IdempotencyKey, KeyedCommands, TakesIdempotencyKey } from '../http/keyed-commands';
import { ZodPipe } from '../http/zod-body.pipe';
import { SignedSparks } from '../sparks/signed-sparks';
import { Responds } from '../docs/responds.decorator';

type CoachNoteBody = Pick<PayloadOf<'progress.add-coach-note'>, 'message' | 'isPinned'>;
type PrivateNoteBody = Pick<PayloadOf<'progress.add-private-note'>, 'note'>;
type SparkListQuery = Omit<PayloadOf<'progress.list-sparks'>, 'userId'>;
type PrivateNotesQuery = Omit<PayloadOf<'progress.list-private-notes'>, 'userId'>;
type RestDayBody = Omit<PayloadOf<'progress.set-rest-day'>, 'userId'>;
type PauseDayBody = Omit<PayloadOf<'progress.take-pause-day'>, 'userId'>;

/** The client home, and what the coach dashboard reads and writes about one client. */
@Controller('api/progress')
export class ProgressController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(SignedSparks) private readonly signed: SignedSparks,
    @Inject(KeyedCommands) private readonly keyed: KeyedCommands,
  ) {}

  /** The signed-in user's own home: progress (null before onboarding) and the latest pinned note. */
  @Responds('progress.get-home')
  @Get('me')
  home(@CurrentUser() user: AuthenticatedUser) {
    return this.bus.request('progress.get-home', { userId: user.id });
  }

  /** The caller's weekly rest day (or none): the streak steps over it. */
  @Responds('progress.set-rest-day')
  @Put('me/rest-day')
  setRestDay(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(restDayBodySchema)) body: RestDayBody) {
    return this.bus.request('progress.set-rest-day', { ...body, userId: user.id });
  }

  /** A pause day the caller takes, today or later in this evolution: 409 once the 14-day allowance is used. */
  @Responds('progress.take-pause-day')
  @Post('me/pause-days')
  @HttpCode(201)
  takePauseDay(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(pauseDayBodySchema)) body: PauseDayBody) {
    return this.bus.request('progress.take-pause-day', { ...body, userId: user.id });
  }

  /** The coach's view of a client's home numbers and pinned note. */
  @Responds('progress.get-home')
  @Roles('coach', 'admin')
  @Get('clients/:userId')
  clientHome(@Param('userId', new ZodPipe(uuidSchema)) userId: string) {
    return this.bus.request('progress.get-home', { userId });
  }

  /** The Activity list: a client's sparks, newest first (20 by default), with signed URLs. */
  @Responds('progress.list-sparks')
  @Roles('coach', 'admin')
  @Get('clients/:userId/sparks')
  async clientSparks(@Param('userId', new ZodPipe(uuidSchema)) userId: string, @Query(new ZodPipe(sparkListQuerySchema)) query: SparkListQuery) {
    return this.signed.signPage(await this.bus.request('progress.list-sparks', { ...query, userId }));
  }

  /** A note or nudge to the client; pinned by default, so it shows on the client's home. Once per `Idempotency-Key`. */
  @Responds('progress.add-coach-note')
  @Roles('coach', 'admin')
  @Post('clients/:userId/notes')
  @HttpCode(201)
  @Audited('client.nudge', { type: 'client', id: { param: 'userId' }, details: ['isPinned'] })
  @TakesIdempotencyKey()
  addNote(
    @CurrentUser() coach: AuthenticatedUser,
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Body(new ZodPipe(coachNoteBodySchema)) body: CoachNoteBody,
    @IdempotencyKey(new ZodPipe(idempotencyKeyHeaderSchema)) key: IdempotencyKeyHeader,
  ) {
    const requestId = this.keyed.requestId(coach.id, 'progress.add-coach-note', key, { userId, body });
    return this.bus.request('progress.add-coach-note', { ...body, userId, coachId: coach.id }, { requestId });
  }

  /** Once per `Idempotency-Key`. */
  @Responds('progress.add-private-note')
  @Roles('coach', 'admin')
  @Post('clients/:userId/private-notes')
  @HttpCode(201)
  @Audited('client.private-note', { type: 'client', id: { param: 'userId' } })
  @TakesIdempotencyKey()
  addPrivateNote(
    @CurrentUser() coach: AuthenticatedUser,
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Body(new ZodPipe(privateNoteBodySchema)) body: PrivateNoteBody,
    @IdempotencyKey(new ZodPipe(idempotencyKeyHeaderSchema)) key: IdempotencyKeyHeader,
  ) {
    const requestId = this.keyed.requestId(coach.id, 'progress.add-private-note', key, { userId, body });
    return this.bus.request('progress.add-private-note', { ...body, userId, coachId: coach.id }, { requestId });
  }

  /** The Activity tab's private notes: newest first, a page at a time after `cursor`. */
  @Responds('progress.list-private-notes')
  @Roles('coach', 'admin')
  @Get('clients/:userId/private-notes')
  privateNotes(@Param('userId', new ZodPipe(uuidSchema)) userId: string, @Query(new ZodPipe(privateNotesQuerySchema)) query: PrivateNotesQuery) {
    return this.bus.request('progress.list-private-notes', { ...query, userId });
  }
}
