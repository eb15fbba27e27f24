import type { SigningKeys } from '@spark/config';
import { type AuthUser, type ClientRecipient, greetingName, type PayloadOf, type UserPage } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ensureExportGranted } from '@spark/messaging';
import { decodeCursor, pageOf, positionOfRow } from '@spark/persistence';
import type { SessionRevocations } from '../sessions/session-revocations';
import type { UserRow, UsersRepository } from './users.repository';

export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    created_at: row.created_at.toISOString(),
    user_metadata: {
      full_name: row.full_name,
      role: row.role,
      onboarding_completed_at: row.onboarding_completed_at?.toISOString() ?? null,
      transformation_goal: row.transformation_goal,
      assigned_coach_id: row.assigned_coach_id,
    },
  };
}

const userGone = () => new DomainError('UNAUTHENTICATED', 'This account no longer exists.');

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly revocations: SessionRevocations,
    private readonly signingKeys: SigningKeys,
  ) {}

  async get({ userId }: PayloadOf<'auth.get-user'>): Promise<AuthUser> {
    const row = await this.users.findById(userId);
    if (!row) throw userGone();
    return toAuthUser(row);
  }

  /** The account, for the progress service's export of it: only with the gateway's grant for that export. */
  async exportAccount(request: PayloadOf<'auth.export-account'>): Promise<AuthUser> {
    ensureExportGranted(this.signingKeys, 'auth', request);
    return this.get(request);
  }

  /**
   * For the notifier, the address and greeting of an e-mail a service addresses to a client by itself (a spark
   * reminder, a data export): from the account, so that whoever queues one chooses which client, not an address or a text.
   */
  async clientRecipient({ userId }: PayloadOf<'auth.client-recipient'>): Promise<ClientRecipient> {
    const row = await this.users.findById(userId);
    if (row?.role !== 'client') throw new DomainError('NOT_FOUND', 'No client has this account.');
    return { email: row.email, firstName: greetingName(row.full_name) };
  }

  /** Role and assigned coach are not in the request schema at all: sending them is a 400. */
  async update({ userId, changes }: PayloadOf<'auth.update-user'>): Promise<AuthUser> {
    const row = await this.users.updateOwnMetadata(userId, changes);
    if (!row) throw userGone();
    return toAuthUser(row);
  }

  async list(request: PayloadOf<'auth.list-users'>): Promise<UserPage> {
    const rows = await this.users.listNewest({ role: request.role, emailPrefix: request.search || undefined }, decodeCursor(request.cursor), request.limit);
    const page = pageOf(rows, request.limit, positionOfRow);
    return { items: page.items.map(toAuthUser), nextCursor: page.nextCursor };
  }

  /**
   * An admin's explicit role change. The user's sessions end at once: refresh tokens are revoked,
   * and their access tokens no longer hold (the gateway reads the marker).
   */
  async setRole({ actorId, userId, role }: PayloadOf<'auth.set-role'>): Promise<AuthUser> {
    const change = await this.users.setRole(actorId, userId, role, (liveFamilies) => this.revocations.roleChanged(userId, liveFamilies));
    switch (change.outcome) {
      case 'actor-not-admin':
        throw new DomainError('FORBIDDEN', 'Only an admin may change roles.');
      case 'user-not-found':
        throw new DomainError('NOT_FOUND', 'This user does not exist.');
      case 'last-admin':
        throw new DomainError('CONFLICT', 'You are the last admin. Make someone else an admin before you change your own role.');
      case 'unchanged':
      case 'changed':
        return toAuthUser(change.user);
    }
  }
}
