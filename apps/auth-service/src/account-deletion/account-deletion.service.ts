import { randomUUID } from 'node:crypto';
import { type ConfirmAccountDeletionResponse, DELETION_CONFIRMATION_MINUTES, type PayloadOf, QUEUES } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { MailSealer, OutboxRelay } from '@spark/jobs';
import type { SessionRevocations } from '../sessions/session-revocations';
import { hashToken, newOpaqueToken } from '../sign-in/secrets';
import type { AccountDeletionRepository } from './account-deletion.repository';

export const INVALID_DELETION_LINK = 'This deletion link is invalid, already used or expired. Ask for a new one from your home screen.';

const notAClient = () => new DomainError('FORBIDDEN', 'Only a client account can be deleted here. A coach or admin account is removed by an admin.');

/**
 * A client deletes their own account in two steps: asking e-mails a link (proof that they hold the address
 * now, not only a session), and confirming through it erases the account here and queues the other parts.
 * See docs/data-rights.md, "Account deletion".
 */
export class AccountDeletionService {
  private readonly now: () => Date;

  constructor(
    private readonly repository: AccountDeletionRepository,
    private readonly revocations: SessionRevocations,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
    private readonly options: { publicUrl: string; sealer: MailSealer; now?: () => Date },
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async request({ userId }: PayloadOf<'auth.request-account-deletion'>): Promise<{ sent: true }> {
    const token = newOpaqueToken();
    const expiresAt = new Date(this.now().getTime() + DELETION_CONFIRMATION_MINUTES * 60_000);
    const confirmUrl = this.confirmUrl(token);
    const user = await this.repository.addConfirmation(userId, { tokenHash: hashToken(token), expiresAt }, async (email) => ({
      queue: QUEUES.mail,
      name: 'account-deletion-confirm',
      data: { email, expiresAt: expiresAt.toISOString(), sealed: await this.options.sealer.seal('account-deletion-confirm', email, { confirmUrl }) },
    }));
    if (!user) throw new DomainError('NOT_FOUND', 'Account not found.');
    if (user.role !== 'client') throw notAClient();
    this.outbox.kick();
    return { sent: true };
  }

  async confirm({ token }: PayloadOf<'auth.confirm-account-deletion'>): Promise<ConfirmAccountDeletionResponse> {
    const result = await this.repository.confirm(hashToken(token), randomUUID(), (userId, liveFamilies) =>
      this.revocations.accountDeleted(userId, liveFamilies),
    );
    if (result.outcome === 'invalid') throw new DomainError('NOT_FOUND', INVALID_DELETION_LINK);
    if (result.outcome === 'not-a-client') throw notAClient();
    // Confirmed again after a lost answer: the page still has to sign out and forget the account's data.
    if (result.outcome === 'erased-before') return { deletionId: result.deletionId, userId: result.userId };
    this.outbox.kick();
    return { deletionId: result.deletionId, userId: result.userId };
  }

  async subject({ deletionId }: PayloadOf<'auth.deletion-subject'>) {
    const subject = await this.repository.subject(deletionId);
    if (!subject) throw new DomainError('NOT_FOUND', 'No unfinished deletion has this id.');
    return subject;
  }

  async partDone({ deletionId, part }: PayloadOf<'auth.deletion-part-done'>): Promise<{ completed: boolean }> {
    const done = await this.repository.markPartDone(deletionId, part);
    if (!done) throw new DomainError('NOT_FOUND', 'No deletion has this id.');
    return done;
  }

  list(request: PayloadOf<'auth.list-account-deletions'>) {
    return this.repository.list(request);
  }

  /** Like a sign-in link, the token travels in the fragment: no server or Referer sees it. */
  private confirmUrl(token: string): string {
    const url = new URL('/account/delete', this.options.publicUrl);
    url.hash = new URLSearchParams({ token }).toString();
    return url.toString();
  }
}
