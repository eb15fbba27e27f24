import { type IssuedSession, type PayloadOf, waitPhrase } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { hashToken } from '../sign-in/secrets';
import type { SessionIssuer } from './session-issuer';
import type { SessionRevocations } from './session-revocations';
import type { SessionsRepository } from './sessions.repository';

export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly issuer: SessionIssuer,
    private readonly revocations: SessionRevocations,
  ) {}

  /**
   * Rotates the refresh token; a spent one presented again within the grace window, its successor unused, gets that
   * successor again (its first answer was lost); any other spent one revokes its family (someone replayed it); a
   * family renewed too often waits.
   */
  async refresh({ refreshToken }: PayloadOf<'auth.refresh'>): Promise<IssuedSession> {
    const presented = hashToken(refreshToken);
    const next = this.issuer.successorOf(refreshToken);
    const rotated = await this.sessions.rotate(presented, next);
    if (rotated && 'retryAfterSeconds' in rotated) {
      throw new DomainError('RATE_LIMITED', `This session was renewed too often. Please try again in ${waitPhrase(rotated.retryAfterSeconds)}.`, rotated);
    }
    if (rotated) return this.issuer.session(rotated.user, next, rotated.familyId);
    const reused = await this.sessions.revokeFamilyIfSpent(presented);
    if (reused) await this.revocations.sessionsEnded([reused], 'token-reused');
    throw new DomainError(
      'UNAUTHENTICATED',
      reused ? 'This session was ended because its refresh token was used twice. Please sign in again.' : 'Your session has ended. Please sign in again.',
    );
  }

  /** Ends every session of the user at once, on every device: their refresh tokens and their access tokens. */
  async signOutEverywhere({ userId }: PayloadOf<'auth.sign-out-everywhere'>): Promise<{ sessionsEnded: number }> {
    const sessionsEnded = await this.sessions.revokeEveryFamily(userId, (liveFamilies) => this.revocations.signedOutEverywhere(userId, liveFamilies));
    if (sessionsEnded === undefined) throw new DomainError('NOT_FOUND', 'No such user.');
    return { sessionsEnded };
  }

  /** Ends the cookie's session at once: its refresh tokens and its access tokens. */
  async signOut({ refreshToken }: PayloadOf<'auth.sign-out'>): Promise<{ signedOut: true }> {
    const familyId = await this.sessions.revokeFamily(hashToken(refreshToken));
    if (familyId) await this.revocations.sessionsEnded([familyId], 'signed-out');
    return { signedOut: true };
  }
}
