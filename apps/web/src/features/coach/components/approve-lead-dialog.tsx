import type { Lead } from '@spark/contracts';
import { ConfirmDialog } from '../../../ui/confirm-dialog';

/** The consequence of approving, in the words the coach or admin confirms: a coach lead becomes a coach. */
export function approvalQuestion(lead: Pick<Lead, 'email' | 'role'>): string {
  return lead.role === 'coach'
    ? `Approve ${lead.email} as a coach? They will get a magic link to the Coach Dashboard, where coaches see every client’s photos and notes.`
    : `Approve ${lead.email} as a client? They will get a magic link to begin their onboarding.`;
}

interface ApproveLeadDialogProps {
  lead: Lead;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before "Approve & Send Magic Link" sends anything, naming the role the person gets. */
export function ApproveLeadDialog({ lead, pending, onConfirm, onClose }: ApproveLeadDialogProps) {
  return (
    <ConfirmDialog
      title="Approve this lead?"
      confirmLabel="Approve & Send Magic Link"
      pendingLabel="Processing..."
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p className="text-slate-700">{approvalQuestion(lead)}</p>
      <p className="mt-2 text-sm text-slate-500">The link works once and expires in 1 hour.</p>
    </ConfirmDialog>
  );
}
