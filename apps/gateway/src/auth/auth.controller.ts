import { Body, Controller, Get, HttpCode, Inject, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  type IssuedSession,
  type LinkInfo,
  linkInfoRequestSchema,
  listUsersRequestSchema,
  magicLinkRequestSchema,
  type PayloadOf,
  redeemRequestSchema,
  type Session,
  sessionSchema,
  updateUserRequestSchema,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { Logger } from '@spark/logging';
import { ServiceBus } from '@spark/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ipSubject, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import type { AuthenticatedUser } from './access-token.guard';
import { CurrentUser, Public, Roles } from './auth.decorators';
import { RefreshCookie } from './refresh-cookie';
import { Responds, RespondsWithout } from '../docs/responds.decorator';
import { GATEWAY_LOGGER } from '../gateway-logger';

// Generous for a household or an office behind one address, tight for a script.
const MAGIC_LINK_PER_IP = { name: 'magic-link', max: 20, windowMs: 10 * 60_000 };
const REDEEM_PER_IP = { name: 'redeem', max: 30, windowMs: 10 * 60_000 };
const LINK_INFO_PER_IP = { ...REDEEM_PER_IP, name: 'link-info' };
// A cookie that names no session costs its service a recorded command, like any other. Only renewals that fail are
// counted, so the people of a busy office, renewing each session every quarter hour and on every page, never use it up;
// a script sending made-up cookies does. Sign-outs are few, and are all counted.
const FAILED_REFRESHES_PER_IP = { name: 'failed-refresh', max: 100, windowMs: 10 * 60_000 };
const SIGN_OUT_PER_IP = { name: 'sign-out', max: 100, windowMs: 10 * 60_000 };

@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(RefreshCookie) private readonly cookie: RefreshCookie,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  /** Always 202 with the same words, whether or not the e-mail has an account. */
  @Responds('auth.magic-link')
  @Public()
  @Post('magic-link')
  @HttpCode(202)
  async requestMagicLink(@Req() request: FastifyRequest, @Body(new ZodPipe(magicLinkRequestSchema)) body: PayloadOf<'auth.magic-link'>) {
    return this.bus.request('auth.magic-link', body, { admission: this.limiter.admission({ limit: MAGIC_LINK_PER_IP, subject: ipSubject(request.ip) }) });
  }

  /**
   * Spends a link's token (or the e-mail's code) for a session; the refresh token goes in the cookie. A refresh cookie
   * the new one replaces is signed out first: once replaced, nobody holds it to sign it out, and its session (someone
   * else's, on a shared computer) would live on. A wrong code keeps it.
   */
  @Responds(sessionSchema)
  @Public()
  @Post('redeem')
  @HttpCode(200)
  async redeem(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ZodPipe(redeemRequestSchema)) body: PayloadOf<'auth.redeem'>,
  ): Promise<Session> {
    const admission = this.limiter.admission({ limit: REDEEM_PER_IP, subject: ipSubject(request.ip) });
    const issued = await this.bus.request('auth.redeem', body, { admission });
    const replaced = this.cookie.read(request);
    if (replaced) {
      // The link or code is spent by now: a failure here must not lose the sign-in, only leave the old session be.
      await this.bus
        .request('auth.sign-out', { refreshToken: replaced })
        .catch((error: unknown) => this.logger.warn({ err: error }, 'the session a sign-in replaced was not signed out'));
    }
    return this.startSession(reply, issued);
  }

  /** Whose a sign-in link is, so /magic-link-auth can ask that person to confirm; spends nothing. */
  @Responds('auth.link-info')
  @Public()
  @Post('link-info')
  @HttpCode(200)
  async linkInfo(@Req() request: FastifyRequest, @Body(new ZodPipe(linkInfoRequestSchema)) body: PayloadOf<'auth.link-info'>): Promise<LinkInfo> {
    return this.bus.request('auth.link-info', body, { admission: this.limiter.admission({ limit: LINK_INFO_PER_IP, subject: ipSubject(request.ip) }) });
  }

  /**
   * Rotates the refresh cookie and answers a fresh session; any failure also clears the cookie. Without the cookie
   * it answers null, not 401: every page load asks, and browsers log each 4xx to the console as an error.
   */
  @Responds(sessionSchema.nullable())
  @Public()
  @Post('refresh')
  @HttpCode(200)
  async refresh(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Session | null> {
    if (!this.cookie.isSent(request)) return null;
    const refreshToken = this.cookie.read(request);
    const failures = { limit: FAILED_REFRESHES_PER_IP, subject: ipSubject(request.ip) };
    try {
      if (!refreshToken) throw new DomainError('UNAUTHENTICATED', 'No session. Please sign in.');
      await this.limiter.refuseIfSpent(failures);
      return this.startSession(reply, await this.bus.request('auth.refresh', { refreshToken }));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') {
        this.cookie.clear(reply);
        // The answer stays the 401: past the limit the next request is refused anyway, and a count Redis did not take is
        // one fewer, not a reason to fail a request that has failed already.
        if (refreshToken) await this.limiter.hit(failures).catch(() => undefined);
      }
      throw error;
    }
  }

  /** Public because the cookie, not the access token, is what it ends. Idempotent: always 204. */
  @RespondsWithout('Signed out; the refresh cookie is cleared')
  @Public()
  @Post('sign-out')
  @HttpCode(204)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const refreshToken = this.cookie.read(request);
    if (refreshToken) {
      await this.bus.request(
        'auth.sign-out',
        { refreshToken },
        { admission: this.limiter.admission({ limit: SIGN_OUT_PER_IP, subject: ipSubject(request.ip) }) },
      );
    }
    this.cookie.clear(reply);
  }

  /** Ends every session of the caller on every device, this one included: a lost phone, a computer left signed in. */
  @RespondsWithout('Every session ended; the refresh cookie is cleared')
  @Post('sign-out-everywhere')
  @HttpCode(204)
  async signOutEverywhere(@CurrentUser() user: AuthenticatedUser, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    // A lost phone must not go on showing a client's reminders: its push subscription goes first, while the token
    // that may ask for it still holds. A client who never finished onboarding has none.
    if (user.role === 'client') {
      await this.bus.request('progress.set-push-subscription', { userId: user.id, subscription: null }).catch((error: unknown) => {
        if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
      });
    }
    await this.bus.request('auth.sign-out-everywhere', { userId: user.id });
    this.cookie.clear(reply);
  }

  @Responds('auth.get-user')
  @Get('user')
  getUser(@CurrentUser() user: AuthenticatedUser) {
    return this.bus.request('auth.get-user', { userId: user.id });
  }

  @Responds('auth.update-user')
  @Patch('user')
  updateUser(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(updateUserRequestSchema)) changes: PayloadOf<'auth.update-user'>['changes']) {
    return this.bus.request('auth.update-user', { userId: user.id, changes });
  }

  /** The Team tab's user list (e.g. `?role=coach`), newest first. It names every staff account, so only admins read it. */
  @Responds('auth.list-users')
  @Roles('admin')
  @Get('users')
  listUsers(@Query(new ZodPipe(listUsersRequestSchema)) query: PayloadOf<'auth.list-users'>) {
    return this.bus.request('auth.list-users', query);
  }

  private startSession(reply: FastifyReply, issued: IssuedSession): Session {
    this.cookie.set(reply, issued.refreshToken);
    return issued.session;
  }
}
