import type { SigningKeys } from '@spark/config';
import type { InviteApproval, InviteRequest } from '@spark/contracts';
import { gatewayStatement, isCurrentStatement } from './gateway-statements';

/** How long an approval may take to reach the auth-service: one approve, its waits for a racing click included. */
export const INVITE_APPROVAL_VALID_MS = 10 * 60_000;

const statement = gatewayStatement('auth', 'invite-approval\n');
const bodyOf = (approval: Omit<InviteApproval, 'signature'>) =>
  JSON.stringify([approval.actorId, approval.actorRole, approval.email, approval.role, approval.approvedAt]);

/** The gateway's approval of inviting `email` as `role`, on behalf of the coach or admin whose token it verified. */
export function signedInviteApproval(keys: SigningKeys, approval: Omit<InviteApproval, 'signature'>): InviteApproval {
  return { ...approval, signature: statement.sign(keys, bodyOf(approval)) };
}

/**
 * Why the auth-service refuses an invitation, or undefined when a coach or admin approved exactly it, lately: signed by
 * the gateway, for this address and role, and a coach's account by an admin (only an admin may make a coach).
 */
export function inviteApprovalRefusal(keys: SigningKeys, invite: Pick<InviteRequest, 'email' | 'role' | 'approval'>, now: number): string | undefined {
  const { approval } = invite;
  const { signature, ...approved } = approval;
  if (!statement.isSignedBy(keys, bodyOf(approved), signature)) return 'an approval the gateway did not sign';
  if (approval.email !== invite.email || approval.role !== invite.role) return 'an approval of another address or role';
  if (approval.role === 'coach' && approval.actorRole !== 'admin') return "a coach's account approved by someone other than an admin";
  if (!isCurrentStatement(approval.approvedAt, now, INVITE_APPROVAL_VALID_MS)) return 'an approval that is no longer current';
  return undefined;
}
