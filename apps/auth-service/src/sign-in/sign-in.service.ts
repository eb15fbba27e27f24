import { randomUUID } from 'node:crypto';
import { type InviteResponse, type IssuedSession, type LinkInfo, type MagicLinkResponse, type PayloadOf, waitPhrase } from '@spark/contracts';
import type { JobRequest, MailSealer, OutboxRelay } from '@spark/jobs';
import type { SigningKeys } from '@spark/config';
import { DomainError } from '@spark/errors';
import { inviteApprovalRefusal } from '@spark/messaging';
import type { SessionIssuer } from '../sessions/session-issuer';
import type { MailCooldown } from './mail-cooldown';
import { hashSignInCode, hashToken, magicLinkUrl, newOpaqueToken, newSignInCode } from './secrets';
import type { NewMagicLink, SignInRepository } from './sign-in.repository';

export const MAGIC_LINK_TTL_MS = 3600_000;

/** The same words for every address, known or not, so the answer reveals no account. */
export const MAGIC_LINK_ACCEPTED = 'If an account exists for this email, a sign-in link is on its way. It works once and expires in 1 hour.';

export interface SignInOptions {
  publicUrl: string;
  codePepper: string;
  developmentMode: boolean;
  /** The e-mail's link and code travel sealed for the notifier. */
  sealer: MailSealer;
  /** Holds the gateway's key for the auth-service, which signs every invitation's approval. */
  signingKeys: SigningKeys;
  now?: () => Date;
}

interface PreparedLink {
  link: NewMagicLink;
  job: JobRequest;
  url: string;
}

/** An admin changes a role in the Team tab; an invitation never does, and sends nothing to such an address. */
const ACCOUNT_ROLE_DIFFERS_MESSAGE = 'This address belongs to an account with another role. An admin can change its role in the Team tab.';

const invalidLink = () => new DomainError('UNAUTHENTICATED', 'This sign-in link is invalid, already used or expired. Please request a new one.');

/**
 * The one answer to every refused code, whatever the reason (wrong, none open, unknown address,
 * expired, paused after too many wrong codes), so it tells nobody which addresses have an account.
 */
export const CODE_REFUSED =
  'That code did not work. Codes expire after an hour and stop working after several wrong tries: use the link in your latest sign-in e-mail, or request a new one.';

export class SignInService {
  private readonly now: () => Date;

  constructor(
    private readonly repository: SignInRepository,
    private readonly cooldown: MailCooldown,
    private readonly issuer: SessionIssuer,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
    private readonly options: SignInOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Sends a link to a known address; an unknown one gets the same answer and no e-mail. */
  async requestMagicLink(request: PayloadOf<'auth.magic-link'>): Promise<MagicLinkResponse> {
    const wait = await this.cooldown.take(request.email);
    if (wait) throw new DomainError('RATE_LIMITED', `Please wait ${waitPhrase(wait.retryAfterSeconds)} before requesting another link.`, wait);
    const next = request.next ?? (request.product === 'coach' ? 'coach' : undefined);
    const prepared = await this.prepare(request.email, next, 'sign-in');
    if (await this.repository.issueForExistingUser(prepared.link, [prepared.job])) this.outbox.kick();
    return { message: MAGIC_LINK_ACCEPTED };
  }

  /**
   * An approved lead becomes a user and gets a link that continues to ditl-welcome. In development
   * mode the link comes back to the coach too, but only for a client account: a coach must never
   * be handed a way into a coach's or an admin's account. Only what a coach or an admin approved is created
   * (`inviteApprovalRefusal`): the leads-service that asks cannot make anyone an account of its own accord.
   * The same person asked again under the same `invitationKey` gets the first invitation's answer and no new
   * link, so its e-mail stays the one that works; the key is checked after the approval, so it can only hold back
   * a repeat of an invitation that was approved and made. An address whose account has another role than the
   * approval's is refused and sent nothing: a client lead under a team member's address must not mail them.
   */
  async invite(request: PayloadOf<'auth.invite'>): Promise<InviteResponse> {
    const refusal = inviteApprovalRefusal(this.options.signingKeys, request, this.now().getTime());
    if (refusal) throw new DomainError('FORBIDDEN', `This invitation was refused: ${refusal}. Please approve it again.`);
    const prepared = await this.prepare(request.email, request.next, 'invite');
    const invited = await this.repository.inviteAndIssue(
      { id: randomUUID(), role: request.role, fullName: request.fullName ?? null },
      prepared.link,
      [prepared.job],
      request.invitationKey,
    );
    // Its deletion's parts still match the address: an account made now would be held back or erased with it.
    if (!invited) throw new DomainError('CONFLICT', "This person's account is being deleted. Please add them again once the deletion is done.");
    if (invited.role !== request.role) throw new DomainError('ACCOUNT_ROLE_DIFFERS', ACCOUNT_ROLE_DIFFERS_MESSAGE);
    const { developmentMode } = this.options;
    if (!invited.issued) return { userId: invited.userId, developmentMode };
    this.outbox.kick();
    const echoLink = developmentMode && invited.role === 'client';
    return echoLink ? { userId: invited.userId, developmentMode, magicLink: prepared.url } : { userId: invited.userId, developmentMode };
  }

  /**
   * Whose an open link is, so the page can ask that person to confirm before anything is spent:
   * a mail scanner opening the link signs nobody in. A link that does not work says only that.
   */
  async linkInfo({ token }: PayloadOf<'auth.link-info'>): Promise<LinkInfo> {
    const email = await this.repository.findOpenLink(hashToken(token));
    if (!email) throw invalidLink();
    return { email };
  }

  async redeem(request: PayloadOf<'auth.redeem'>): Promise<IssuedSession> {
    const refresh = this.issuer.newRefreshToken();
    const started = { id: refresh.id, familyId: randomUUID(), tokenHash: refresh.tokenHash, expiresAt: refresh.expiresAt };
    if ('token' in request) {
      const user = await this.repository.redeemToken(hashToken(request.token), started);
      if (!user) throw invalidLink();
      return this.issuer.session(user, refresh, started.familyId);
    }
    const lockout: JobRequest = { queue: 'mail', name: 'code-sign-in-locked', data: { email: request.email } };
    const attempt = await this.repository.redeemCode(request.email, hashSignInCode(this.options.codePepper, request.email, request.code), started, lockout);
    if (attempt.outcome === 'signed-in') return this.issuer.session(attempt.user, refresh, started.familyId);
    if (attempt.ownerTold) this.outbox.kick();
    throw new DomainError('UNAUTHENTICATED', CODE_REFUSED);
  }

  private async prepare(email: string, next: string | undefined, purpose: 'sign-in' | 'invite'): Promise<PreparedLink> {
    const token = newOpaqueToken();
    const code = newSignInCode();
    const expiresAt = new Date(this.now().getTime() + MAGIC_LINK_TTL_MS);
    // An invitation's link tells the page its person was approved (the coach-approved flag).
    const url = magicLinkUrl(this.options.publicUrl, token, next, purpose === 'invite');
    return {
      link: { id: randomUUID(), email, tokenHash: hashToken(token), codeHash: hashSignInCode(this.options.codePepper, email, code), expiresAt },
      job: {
        queue: 'mail',
        name: 'magic-link',
        data: { email, expiresAt: expiresAt.toISOString(), purpose, sealed: await this.options.sealer.seal('magic-link', email, { link: url, code }) },
      },
      url,
    };
  }
}
