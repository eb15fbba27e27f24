import { ACCESS_CODE_TTL_DAYS, type GenerateAccessCodeResponse, type Investor } from '@spark/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { toast } from '../../../ui/toaster';
import { investorKeys, investorsApi } from '../api/investors-api';

const dateOf = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }) : 'Never';

const dayOf = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** A code just generated or reissued: shown this once, since only its hash is kept. */
function FreshCode({ code, email, onSendCode }: { code: GenerateAccessCodeResponse; email: string; onSendCode: () => void }) {
  const copy = async () => {
    await navigator.clipboard.writeText(code.accessCode).catch(() => undefined);
    toast.success('Access code copied');
  };
  return (
    <div className="mt-2 rounded-xl bg-spark-50 p-3 ring-1 ring-spark-200 ring-inset">
      <p className="font-mono text-sm font-semibold break-all text-ink-950">{code.accessCode}</p>
      <p className="mt-1 text-xs text-slate-700">
        Copy it or send it now: it is shown only once. It works with {email} until {dayOf(code.expiresAt)}.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy Code
        </Button>
        <Button onClick={onSendCode}>Send Code</Button>
      </div>
    </div>
  );
}

interface InvestorRowProps {
  investor: Investor;
  selected: boolean;
  onToggle: () => void;
  onSendCode: (code: GenerateAccessCodeResponse) => void;
}

export function InvestorRow({ investor, selected, onToggle, onSendCode }: InvestorRowProps) {
  const queryClient = useQueryClient();
  const [fresh, setFresh] = useState<GenerateAccessCodeResponse | null>(null);
  const [confirmingReissue, setConfirmingReissue] = useState(false);
  // When the list was drawn: an expiry passing while it is open shows on the next load, not mid-click.
  const [shownAt] = useState(Date.now);
  const showOnce = (code: GenerateAccessCodeResponse) => {
    setFresh(code);
    setConfirmingReissue(false);
    void queryClient.invalidateQueries({ queryKey: investorKeys.all });
  };
  const generate = useMutation({
    mutationFn: () => investorsApi.generateCode(investor.id),
    onSuccess: showOnce,
    onError: () => {
      toast.error('Failed to generate access code. Please try again.');
      void queryClient.invalidateQueries({ queryKey: investorKeys.all });
    },
  });
  const reissue = useMutation({
    mutationFn: () => investorsApi.reissueCode(investor.id),
    onSuccess: showOnce,
    onError: () => {
      setConfirmingReissue(false);
      toast.error('Failed to generate access code. Please try again.');
    },
  });
  const expiresAt = investor.codeExpiresAt;
  const expired = expiresAt !== null && new Date(expiresAt).getTime() <= shownAt;
  return (
    <li className="flex items-start gap-3 border-t border-slate-200 py-4" data-testid="investor-row">
      <input type="checkbox" className="mt-1 size-5 shrink-0 accent-spark-500" aria-label={`Select ${investor.email}`} checked={selected} onChange={onToggle} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold text-ink-950">{investor.email}</p>
            <p className="text-sm text-slate-600">{investor.interest ?? 'No interest noted'}</p>
            <p className="text-xs text-slate-500">
              Joined: {dateOf(investor.createdAt)} · Last email: {dateOf(investor.lastEmailSentAt)}
            </p>
            {investor.codeIssuedAt && expiresAt && !fresh && (
              <p className={`mt-1 text-xs ${expired ? 'text-rose-700' : 'text-slate-600'}`}>
                Code issued {dayOf(investor.codeIssuedAt)} · {expired ? 'Expired' : 'Expires'} {dayOf(expiresAt)}
                {investor.accessCount > 0 && <span className="whitespace-nowrap text-slate-500"> (Used {investor.accessCount} x)</span>}
              </p>
            )}
          </div>
          <div className="flex shrink-0 gap-2">
            {!investor.codeIssuedAt && !fresh && (
              <Button variant="secondary" onClick={() => generate.mutate()} disabled={generate.isPending}>
                {generate.isPending ? 'Generating...' : 'Generate Code'}
              </Button>
            )}
            {investor.codeIssuedAt && !fresh && (
              <Button variant="secondary" onClick={() => setConfirmingReissue(true)}>
                Reissue Code
              </Button>
            )}
          </div>
        </div>
        {fresh && <FreshCode code={fresh} email={investor.email} onSendCode={() => onSendCode(fresh)} />}
      </div>
      {confirmingReissue && (
        <ConfirmDialog
          title="Reissue access code?"
          confirmLabel="Reissue Code"
          pendingLabel="Reissuing..."
          pending={reissue.isPending}
          onConfirm={() => reissue.mutate()}
          onClose={() => setConfirmingReissue(false)}
        >
          <p className="text-slate-700">
            The current code for {investor.email} stops working at once. The new code works for {ACCESS_CODE_TTL_DAYS} days.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}
