import { developmentSigningKeys } from '@spark/config';
import { emailSchema, type InviteRequest } from '@spark/contracts';
import { signedInviteApproval } from '@spark/messaging';
import { randomUUID } from 'node:crypto';

/**
 * `auth.invite` as the leads-service sends it: with the approval the gateway signed when a coach or an admin
 * (`actorRole`) approved this address and role.
 */
export function approvedInvite(invite: Omit<InviteRequest, 'approval'>, actorRole: 'coach' | 'admin' = 'admin', approvedAt = Date.now()): InviteRequest {
  const approval = signedInviteApproval(developmentSigningKeys(), {
    actorId: randomUUID(),
    actorRole,
    email: emailSchema.parse(invite.email),
    role: invite.role,
    approvedAt,
  });
  return { ...invite, approval };
}
