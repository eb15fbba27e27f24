import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import {
  type AccountDeletionPage,
  type ConfirmAccountDeletionBody,
  type ConfirmAccountDeletionResponse,
  confirmAccountDeletionBodySchema,
  listAccountDeletionsRequestSchema,
  type PayloadOf,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Public, Roles } from '../auth/auth.decorators';
import { ipSubject, type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';

/** Each request e-mails the client: a few a day is plenty for someone who changed their mind and came back. */
const DELETION_REQUESTS_PER_USER: RateLimit = { name: 'account-deletion-request', max: 3, windowMs: 24 * 3600 * 1000 };
// As the sign-in link's redemption: a guessed token is 32 random bytes, the limit only stops noise.
const DELETION_CONFIRMS_PER_IP: RateLimit = { name: 'account-deletion-confirm', max: 30, windowMs: 10 * 60_000 };

/** Account deletion (docs/data-rights.md): the client asks and confirms by the e-mailed link; admins read the records. */
@Controller()
export class AccountDeletionController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  /** E-mails the signed-in client a confirmation link; nothing is deleted yet. Coaches and admins are answered 403. */
  @Responds('auth.request-account-deletion')
  @Post('api/me/account-deletion')
  @HttpCode(202)
  async request(@CurrentUser() user: AuthenticatedUser): Promise<{ sent: true }> {
    const admission = this.limiter.admission({ limit: DELETION_REQUESTS_PER_USER, subject: user.id });
    return this.bus.request('auth.request-account-deletion', { userId: user.id }, { admission });
  }

  /** Spends the link's token: the account is deleted and every session ends. Public: the link may open on any device. */
  @Responds('auth.confirm-account-deletion')
  @Public()
  @Post('api/account-deletion/confirm')
  @HttpCode(200)
  async confirm(
    @Req() request: FastifyRequest,
    @Body(new ZodPipe(confirmAccountDeletionBodySchema)) body: ConfirmAccountDeletionBody,
  ): Promise<ConfirmAccountDeletionResponse> {
    const admission = this.limiter.admission({ limit: DELETION_CONFIRMS_PER_IP, subject: ipSubject(request.ip) });
    return this.bus.request('auth.confirm-account-deletion', body, { admission });
  }

  /** The dashboard's Deletions tab: newest first, which parts each deletion has finished. */
  @Responds('auth.list-account-deletions')
  @Roles('admin')
  @Get('api/admin/account-deletions')
  list(@Query(new ZodPipe(listAccountDeletionsRequestSchema)) query: PayloadOf<'auth.list-account-deletions'>): Promise<AccountDeletionPage> {
    return this.bus.request('auth.list-account-deletions', query);
  }
}
