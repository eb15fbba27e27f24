import { developmentSigningKeys } from '@spark/config';
import { INVITE_APPROVAL_VALID_MS, inviteApprovalRefusal, signedInviteApproval } from './invite-approvals';

const keys = developmentSigningKeys();
const now = Date.parse('2026-11-30T10:00:00Z');
const approvalOf = (email: string, role: 'client' | 'coach', actorRole: 'coach' | 'admin', approvedAt = now) =>
  signedInviteApproval(keys, { actorId: '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f', actorRole, email, role, approvedAt });
const invite = (email: string, role: 'client' | 'coach', approval = approvalOf(email, role, 'admin')) => ({ email, role, approval });

describe('invitation approvals', () => {
  it('lets through what a coach or an admin approved: a client by either, a coach by an admin', () => {
    expect(inviteApprovalRefusal(keys, invite('ann@example.com', 'client', approvalOf('ann@example.com', 'client', 'coach')), now)).toBeUndefined();
    expect(inviteApprovalRefusal(keys, invite('bob@example.com', 'coach', approvalOf('bob@example.com', 'coach', 'admin')), now)).toBeUndefined();
  });

  it.each([
    ['another address', invite('eve@example.com', 'client', approvalOf('ann@example.com', 'client', 'coach')), 'an approval of another address or role'],
    ['another role', invite('eve@example.com', 'coach', approvalOf('eve@example.com', 'client', 'admin')), 'an approval of another address or role'],
    [
      'a coach approved by a coach',
      invite('eve@example.com', 'coach', approvalOf('eve@example.com', 'coach', 'coach')),
      "a coach's account approved by someone other than an admin",
    ],
    [
      'an approval changed after signing',
      invite('eve@example.com', 'coach', { ...approvalOf('eve@example.com', 'coach', 'coach'), actorRole: 'admin' }),
      'an approval the gateway did not sign',
    ],
    [
      'an approval signed with another key',
      invite(
        'eve@example.com',
        'client',
        signedInviteApproval(new Map([['bus:auth/gateway', keys.get('bus:auth/leads') ?? []]]), {
          actorId: '7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
          actorRole: 'admin',
          email: 'eve@example.com',
          role: 'client',
          approvedAt: now,
        }),
      ),
      'an approval the gateway did not sign',
    ],
    [
      'an approval long past',
      invite('eve@example.com', 'client', approvalOf('eve@example.com', 'client', 'admin', now - INVITE_APPROVAL_VALID_MS - 1)),
      'an approval that is no longer current',
    ],
    [
      'an approval from the future',
      invite('eve@example.com', 'client', approvalOf('eve@example.com', 'client', 'admin', now + 120_000)),
      'an approval that is no longer current',
    ],
  ])('refuses %s', (_case, request, reason) => {
    expect(inviteApprovalRefusal(keys, request, now)).toBe(reason);
  });

  it('cannot be signed without the key the gateway signs for the auth-service with', () => {
    expect(() => signedInviteApproval(new Map(), { actorId: 'x', actorRole: 'admin', email: 'a@example.com', role: 'client', approvedAt: now })).toThrow(
      'SIGNING_KEYS needs bus:auth/gateway',
    );
  });
});
