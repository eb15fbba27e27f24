import { Body, Controller, Get, Param, Patch, Put, Query } from '@nestjs/common';
import { listClientsRequestSchema, type PayloadOf, pauseAllowanceBodySchema, updateClientBodySchema, uuidSchema } from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import { Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';

/**
 * The Clients tab and the Manage Client dialog. Sparks and notes of a client are read and written
 * through `/api/progress/clients/:userId/...` (the progress feature's routes).
 */
@Roles('coach', 'admin')
@Controller('api/coach/clients')
export class CoachClientsController {
  constructor(private readonly bus: ServiceBus) {}

  @Responds('progress.coach-list-clients')
  @Get()
  list(@Query(new ZodPipe(listClientsRequestSchema)) query: PayloadOf<'progress.coach-list-clients'>) {
    return this.bus.request('progress.coach-list-clients', query);
  }

  /** The record, its trends (sparks per day, time of day, weekdays, slipping) and the nudges sent. */
  @Responds('progress.coach-client')
  @Get(':userId')
  detail(@Param('userId', new ZodPipe(uuidSchema)) userId: string) {
    return this.bus.request('progress.coach-client', { userId });
  }

  /** Edit Record: goal, status and custom evolution days. */
  @Responds('progress.coach-update-client')
  @Patch(':userId')
  @Audited('client.update', { type: 'client', id: { param: 'userId' }, label: { answer: ['email'] }, details: ['status', 'customEvolutionDays'] })
  update(
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Body(new ZodPipe(updateClientBodySchema)) changes: PayloadOf<'progress.coach-update-client'>['changes'],
  ) {
    return this.bus.request('progress.coach-update-client', { userId, changes });
  }

  /** How many pause days the client may take in each 14-day window of the evolution. */
  @Responds('progress.set-pause-allowance')
  @Put(':userId/pause-allowance')
  @Audited('client.pause-allowance', { type: 'client', id: { param: 'userId' }, details: ['pauseDaysAllowance'] })
  setPauseAllowance(
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Body(new ZodPipe(pauseAllowanceBodySchema)) body: Omit<PayloadOf<'progress.set-pause-allowance'>, 'userId'>,
  ) {
    return this.bus.request('progress.set-pause-allowance', { ...body, userId });
  }
}
