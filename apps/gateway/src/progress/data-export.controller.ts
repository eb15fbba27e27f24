import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { type ExportStatus, type RequestExportBody, requestExportBodySchema, type RequestExportResponse, uuidSchema } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { Responds } from '../docs/responds.decorator';
import { ExportGranter } from './export-granter';

/** Each export reads every file the client stored, so one client's archives are few a day, whoever asks. */
const EXPORTS_PER_CLIENT: RateLimit = { name: 'data-export', max: 3, windowMs: 24 * 3600 * 1000 };

/** "Download my data": the archive is built by a queued job and its link e-mailed to the client. */
@Controller()
export class DataExportController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    private readonly granter: ExportGranter,
  ) {}

  @Responds('progress.request-export')
  @Post('api/progress/me/export')
  @HttpCode(202)
  async exportMine(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(requestExportBodySchema)) body: RequestExportBody,
  ): Promise<RequestExportResponse> {
    const admission = this.limiter.admission({ limit: EXPORTS_PER_CLIENT, subject: user.id });
    const request = { ...body, userId: user.id, email: user.email, requestedBy: user.id, grant: this.granter.grant({ userId: user.id, email: user.email }) };
    return this.bus.request('progress.request-export', request, { admission });
  }

  /** One of the caller's own exports: a short-lived download link once built (the page waits for a small one). */
  @Responds('progress.get-export')
  @Get('api/progress/me/exports/:exportId')
  exportStatus(@CurrentUser() user: AuthenticatedUser, @Param('exportId', new ZodPipe(uuidSchema)) exportId: string): Promise<ExportStatus> {
    return this.bus.request('progress.get-export', { userId: user.id, exportId });
  }

  /** For a client who asked by e-mail: the link still goes only to the client's own address. */
  @Responds('progress.request-export')
  @Roles('admin')
  @Post('api/coach/clients/:userId/export')
  @HttpCode(202)
  @Audited('client.data-export', { type: 'client', id: { param: 'userId' } })
  async exportForClient(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('userId', new ZodPipe(uuidSchema)) userId: string,
    @Body(new ZodPipe(requestExportBodySchema)) body: RequestExportBody,
  ): Promise<RequestExportResponse> {
    const client = await this.bus.request('auth.get-user', { userId }).catch((error: unknown) => {
      // auth-service reads an unknown id as a session whose account is gone; here it is a wrong client id.
      throw error instanceof DomainError && error.code === 'UNAUTHENTICATED' ? new DomainError('NOT_FOUND', 'There is no such client.') : error;
    });
    const admission = this.limiter.admission({ limit: EXPORTS_PER_CLIENT, subject: userId });
    const request = { ...body, userId, email: client.email, requestedBy: admin.id, grant: this.granter.grant({ userId, email: client.email }) };
    return this.bus.request('progress.request-export', request, { admission });
  }
}
