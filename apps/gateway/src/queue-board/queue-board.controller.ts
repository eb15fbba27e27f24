import { Controller, HttpCode, Post } from '@nestjs/common';
import { QUEUE_BOARD_PATH, type QueueBoardTicket, queueBoardTicketSchema } from '@spark/contracts';
import { Audited } from '../audit/audited.decorator';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { type RateLimit, RateLimiter } from '../http/rate-limiter';
import { QueueBoardPasses } from './queue-board-passes';
import { Responds } from '../docs/responds.decorator';

// An admin opens the dashboard a few times an hour; a stolen session should not mint tickets in bulk.
const TICKETS_PER_ADMIN: RateLimit = { name: 'queue-board-tickets-per-admin', max: 30, windowMs: 15 * 60_000 };

/** The way into the queue dashboard from the coach dashboard's Queues link. */
@Roles('admin')
@Controller('api/admin/queue-board')
export class QueueBoardController {
  constructor(
    private readonly passes: QueueBoardPasses,
    private readonly limiter: RateLimiter,
  ) {}

  /** A single-use, 30-second address that signs this session into the dashboard (see QueueBoardPasses). */
  @Responds(queueBoardTicketSchema)
  @Post('tickets')
  @HttpCode(201)
  @Audited('queues.open', { type: 'queue-board' })
  async issueTicket(@CurrentUser() admin: AuthenticatedUser): Promise<QueueBoardTicket> {
    await this.limiter.hit({ limit: TICKETS_PER_ADMIN, subject: admin.id });
    const { ticket, expiresAt } = await this.passes.issueTicket(admin);
    return { url: `${QUEUE_BOARD_PATH}?ticket=${ticket}`, expiresAt: expiresAt.toISOString() };
  }
}
