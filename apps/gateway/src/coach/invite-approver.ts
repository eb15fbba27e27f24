import type { SigningKeys } from '@spark/config';
import type { Actor, InviteApproval, LeadInviteBody } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { signedInviteApproval } from '@spark/messaging';

/**
 * Signs, for the auth-service, what the coach or admin behind a request approved: inviting this address as this role.
 * The auth-service creates no account without it, whatever the leads-service asks.
 */
export class InviteApprover {
  constructor(private readonly keys: SigningKeys) {}

  approve(actor: Actor, invite: LeadInviteBody): InviteApproval {
    if (actor.role === 'client') throw new DomainError('FORBIDDEN', 'Only a coach or an admin can approve an invitation.');
    return signedInviteApproval(this.keys, { actorId: actor.id, actorRole: actor.role, email: invite.email, role: invite.role, approvedAt: Date.now() });
  }
}
