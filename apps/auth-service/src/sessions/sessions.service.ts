import type { IssuedSession, PayloadOf } from '@spark/contracts';
import { DomainError } from '@spark/messaging';
import { hashToken } from '../sign-in/secrets';
import type { SessionIssuer } from './session-issuer';
import type { SessionsRepository } from './sessions.repository';

export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly issuer: SessionIssuer,
  ) {}

  /** Rotates the refresh token; a spent one revokes its family (someone replayed it). */
  async refresh({ refreshToken }: PayloadOf<'auth.refresh'>): Promise<IssuedSession> {
    const presented = hashToken(refreshToken);
    const next = this.issuer.newRefreshToken();
    const user = await this.sessions.rotate(presented, next);
    if (user) return this.issuer.session(user, next);
    const reused = await this.sessions.revokeFamilyIfSpent(presented);
    throw new DomainError(
      'UNAUTHENTICATED',
      reused ? 'This session was ended because its refresh token was used twice. Please sign in again.' : 'Your session has ended. Please sign in again.',
    );
  }

  async signOut({ refreshToken }: PayloadOf<'auth.sign-out'>): Promise<{ signedOut: true }> {
    await this.sessions.revokeFamily(hashToken(refreshToken));
    return { signedOut: true };
  }
}
