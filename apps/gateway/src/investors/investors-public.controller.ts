import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import {
  deckDownloadRequestSchema,
  type DeckDownloadResponse,
  deckDownloadResponseSchema,
  type DonatePage,
  donatePageSchema,
  investorFormReceivedSchema,
  type PayloadOf,
  registerInvestorRequestSchema,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ServiceBus } from '@spark/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { ipSubject, mailboxSubject, type RateLimit, RateLimiter, secretSubject } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { DeckFiles } from './deck-files';
import { Responds, RespondsWithout } from '../docs/responds.decorator';

// With 100-bit codes, guessing is hopeless anyway; the limit also keeps the service unloaded.
const DOWNLOAD_PER_IP: RateLimit = { name: 'deck-download-per-ip', max: 10, windowMs: 15 * 60_000 };
// An investor downloads the deck a few times, on a few devices; a code shared in public is stopped within
// the day. Not per e-mail: anyone who knows an investor's address could then lock them out, and guessing a
// code is no threat to stop.
const DOWNLOAD_PER_CODE: RateLimit = { name: 'deck-download-per-code', max: 20, windowMs: 24 * 60 * 60_000 };
// The two sign-up forms share their counters: one person fills in one or both, once or twice.
const SIGN_UP_PER_IP: RateLimit = { name: 'investor-sign-up-per-ip', max: 20, windowMs: 60 * 60_000 };
const SIGN_UP_PER_MAILBOX: RateLimit = { name: 'investor-sign-up-per-mailbox', max: 5, windowMs: 24 * 60 * 60_000 };

/** /donate: the deck preview, the full-deck request, access-code downloads and early access. */
@Public()
@Controller('api/investors')
export class InvestorsPublicController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(DeckFiles) private readonly deck: DeckFiles,
  ) {}

  @Responds(donatePageSchema)
  @Get('donate-page')
  donatePage(): Promise<DonatePage> {
    return this.deck.donatePage();
  }

  /** Redirects to a fresh signed URL, so the page can embed a stable address. */
  @RespondsWithout('The preview deck file (PDF or image)')
  @Get('deck/preview')
  async preview(@Res() reply: FastifyReply): Promise<void> {
    if (!(await this.deck.exists('preview'))) throw new DomainError('NOT_FOUND', 'The deck preview is not available yet.');
    await reply.header('cache-control', 'private, max-age=300').redirect(await this.deck.previewUrl(), 302);
  }

  /** The request-full-deck form without a code: the visitor becomes an investor lead (duplicates ignored). */
  @Responds(investorFormReceivedSchema)
  @Post('deck-requests')
  @HttpCode(202)
  async requestDeck(@Req() request: FastifyRequest, @Body(new ZodPipe(registerInvestorRequestSchema)) body: PayloadOf<'investor.register'>) {
    await this.register(request, body.email, body.interest ?? 'Requested the full deck');
    return { received: true };
  }

  /** The coming-soon variant's "Keep me posted". */
  @Responds(investorFormReceivedSchema)
  @Post('early-access')
  @HttpCode(202)
  async earlyAccess(@Req() request: FastifyRequest, @Body(new ZodPipe(registerInvestorRequestSchema)) body: PayloadOf<'investor.register'>) {
    await this.register(request, body.email, body.interest ?? 'Early access');
    return { received: true };
  }

  /** `download-investor-deck`: a valid code is counted and answered with a one-hour link. */
  @Responds(deckDownloadResponseSchema)
  @Post('deck-download')
  @HttpCode(200)
  async download(@Req() request: FastifyRequest, @Body() raw: unknown): Promise<DeckDownloadResponse> {
    const body = deckDownloadRequestSchema.safeParse(raw ?? {});
    const perCode = body.success ? [{ limit: DOWNLOAD_PER_CODE, subject: secretSubject(body.data.accessCode) }] : [];
    await this.limiter.hit({ limit: DOWNLOAD_PER_IP, subject: ipSubject(request.ip) }, ...perCode);
    // A malformed code is answered like a wrong one, so the form shows one message.
    if (!body.success) throw new DomainError('FORBIDDEN', 'Invalid access code. Please check your code and try again.');
    // The code is checked first: a wrong code is denied whether or not a deck has been uploaded.
    await this.bus.request('investor.redeem-access-code', body.data);
    if (!(await this.deck.exists('full'))) throw new DomainError('NOT_FOUND', 'The deck is not available yet. Please try again later.');
    return this.deck.downloadLink();
  }

  /** Both sign-up forms: the visitor becomes an investor lead, within limits the two forms share. */
  private register(request: FastifyRequest, email: string, interest: string) {
    const admission = this.limiter.admission(
      { limit: SIGN_UP_PER_IP, subject: ipSubject(request.ip) },
      { limit: SIGN_UP_PER_MAILBOX, subject: mailboxSubject(email) },
    );
    return this.bus.request('investor.register', { email, interest }, { admission });
  }
}
