import { isPairSignature, pairSignature, type SigningKeys } from '@spark/config';
import { type InviteApproval, type InviteRequest, signingKeyName } from '@spark/contracts';

/** How long an approval may take to reach the auth-service: one approve, its waits for a racing click included. */
export const INVITE_APPROVAL_VALID_MS = 10 * 60_000;
// The gateway's and the auth-service's clocks may differ by this much.
const CLOCK_SKEW_MS = 60_000;

// Signed with the key the gateway signs its requests to the auth-service with, under a header no bus request can have
// (a request's begins with a pattern name), so neither can pass for the other.
const PAIR = signingKeyName({ kind: 'bus', service: 'auth', caller: 'gateway' });
const HEADER = 'invite-approval\n';
const bodyOf = (approval: Omit<InviteApproval, 'signature'>) =>
  JSON.stringify([approval.actorId, approval.actorRole, approval.email, approval.role, approval.approvedAt]);

/** The gateway's approval of inviting `email` as `role`, on behalf of the coach or admin whose token it verified. */
export function signedInviteApproval(keys: SigningKeys, approval: Omit<InviteApproval, 'signature'>): InviteApproval {
  const signature = pairSignature(keys, PAIR, HEADER, bodyOf(approval));
  if (!signature) throw new Error(`No key to sign an invitation's approval (SIGNING_KEYS needs ${PAIR})`);
  return { ...approval, signature };
}

/**
 * Why the auth-service refuses an invitation, or undefined when a coach or admin approved exactly it, lately: signed by
 * the gateway, for this address and role, and a coach's account by an admin (only an admin may make a coach).
 */
export function inviteApprovalRefusal(keys: SigningKeys, invite: Pick<InviteRequest, 'email' | 'role' | 'approval'>, now: number): string | undefined {
  const { approval } = invite;
  const { signature, ...approved } = approval;
  if (!isPairSignature(keys, PAIR, HEADER, bodyOf(approved), signature)) return 'an approval the gateway did not sign';
  if (approval.email !== invite.email || approval.role !== invite.role) return 'an approval of another address or role';
  if (approval.role === 'coach' && approval.actorRole !== 'admin') return "a coach's account approved by someone other than an admin";
  if (approval.approvedAt > now + CLOCK_SKEW_MS || approval.approvedAt < now - INVITE_APPROVAL_VALID_MS) return 'an approval that is no longer current';
  return undefined;
}
