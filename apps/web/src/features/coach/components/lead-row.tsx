import { type Lead, primaryChallenges } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { Icon } from '../../../ui/icon';
import { coachApi, formatDateTime } from '../api/coach-api';
import { ApproveLeadDialog } from './approve-lead-dialog';
import { announceInvite, leadFailureMessage } from './invite-outcome';

/** Badge precedence of docs/product.md §4. */
function StatusBadge({ lead }: { lead: Lead }) {
  const [label, tone] = lead.userCreated
    ? ['User Created', 'bg-emerald-100 text-emerald-800']
    : lead.approvalStatus === 'approved'
      ? ['Approved', 'bg-sky-100 text-sky-800']
      : lead.approvalStatus === 'rejected'
        ? ['Rejected', 'bg-rose-100 text-rose-800']
        : ['Pending Review', 'bg-spark-100 text-spark-800'];
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}>{label}</span>;
}

/** What the person becomes when approved; a coach is set apart, since coaches see every client. */
function RoleBadge({ role }: { role: Lead['role'] }) {
  return role === 'coach' ? (
    <span className="inline-flex rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-800 ring-1 ring-violet-300 ring-inset">Coach</span>
  ) : (
    <span className="inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset">Client</span>
  );
}

/**
 * `onChanged` refreshes the list; each action stays pending until it resolves, so the row's buttons stay disabled
 * while they still show the lead as it was before the action.
 */
export function LeadRow({ lead, isAdmin, onChanged }: { lead: Lead; isAdmin: boolean; onChanged: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const reasonId = useId();
  const approve = useMutation({
    mutationFn: () => coachApi.approve(lead),
    onSuccess: async (outcome) => {
      setConfirming(false);
      const refreshed = onChanged();
      if (!outcome.alreadyApproved) await announceInvite(lead.email, outcome);
      await refreshed;
    },
    onError: (error) => {
      setConfirming(false);
      window.alert(leadFailureMessage(error, 'Failed to approve lead. Please try again.'));
    },
  });
  const reject = useMutation({
    mutationFn: () => coachApi.reject(lead.id),
    onSuccess: onChanged,
    onError: (error) => window.alert(leadFailureMessage(error, 'Failed to reject lead. Please try again.')),
  });
  const resend = useMutation({
    mutationFn: () => coachApi.resend(lead),
    onSuccess: async (outcome) => {
      const refreshed = onChanged();
      await announceInvite(lead.email, outcome);
      await refreshed;
    },
    onError: (error) => window.alert(leadFailureMessage(error, 'An unexpected error occurred. Please try again.')),
  });
  const busy = approve.isPending || reject.isPending || resend.isPending;
  // The server refuses it too; the dashboard says so before anyone clicks.
  const adminOnly = lead.role === 'coach' && !isAdmin;
  const pending = lead.approvalStatus === 'pending';
  const resendable = lead.approvalStatus === 'approved' && !lead.userCreated;
  const describedBy = adminOnly ? reasonId : undefined;
  return (
    <li className="flex flex-col gap-3 border-b border-slate-100 p-4 last:border-0 sm:flex-row sm:items-center sm:justify-between" data-testid="lead-row">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold text-ink-950">{lead.fullName ?? 'Name not provided'}</p>
          <RoleBadge role={lead.role} />
          <StatusBadge lead={lead} />
        </div>
        <p className="truncate text-sm text-slate-600">{lead.email}</p>
        <p className="mt-1 text-sm text-slate-600">
          <span className="font-medium text-slate-700">Primary Challenge:</span>{' '}
          {lead.primaryChallenge ? primaryChallenges[lead.primaryChallenge] : 'Not specified'}
        </p>
        <p className="text-xs text-slate-500">Submitted: {formatDateTime(lead.createdAt)}</p>
      </div>
      {(pending || resendable) && (
        <div className="flex shrink-0 flex-col gap-2 sm:items-end">
          <div className="grid grid-cols-[1fr_auto] gap-2 sm:flex">
            {pending && (
              <>
                <Button onClick={() => setConfirming(true)} disabled={busy || adminOnly} aria-describedby={describedBy}>
                  {approve.isPending ? 'Processing...' : 'Approve & Send Magic Link'}
                </Button>
                <Button variant="secondary" onClick={() => reject.mutate()} disabled={busy || adminOnly} aria-describedby={describedBy}>
                  Reject
                </Button>
              </>
            )}
            {resendable && (
              <Button variant="secondary" onClick={() => resend.mutate()} disabled={busy || adminOnly} aria-describedby={describedBy}>
                {resend.isPending ? 'Sending...' : 'Resend Magic Link'}
              </Button>
            )}
          </div>
          {adminOnly && (
            <p id={reasonId} className="flex items-start gap-1.5 text-xs text-slate-600 sm:max-w-80">
              <Icon name="lock" className="mt-px size-3.5! text-violet-700" />
              <span>
                {pending
                  ? 'Only an admin can approve or reject a coach application: coaches see every client’s photos and notes.'
                  : 'Only an admin can resend the magic link of a coach application.'}
              </span>
            </p>
          )}
        </div>
      )}
      {confirming && <ApproveLeadDialog lead={lead} pending={approve.isPending} onConfirm={() => approve.mutate()} onClose={() => setConfirming(false)} />}
    </li>
  );
}
