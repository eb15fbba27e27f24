import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import { coachApi, coachKeys } from '../api/coach-api';
import { announceInvite, leadFailureMessage } from './invite-outcome';

export function AddClientLeadDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [email, setEmail] = useState('');
  const [days, setDays] = useState('');
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => coachApi.addClientLead({ email: email.trim(), customEvolutionDays: days.trim() ? Number.parseInt(days, 10) : null }),
    onSuccess: async (outcome) => {
      void queryClient.invalidateQueries({ queryKey: coachKeys.all });
      onOpenChange(false);
      setEmail('');
      setDays('');
      if (outcome.inviteSent) await announceInvite(outcome.lead.email, outcome);
      else window.alert(`The lead was created, but the magic link could not be sent. Please resend it from the Leads tab.`);
    },
    onError: (error) => window.alert(leadFailureMessage(error, 'Failed to create lead. Email may already exist.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return window.alert('Please enter an email address');
    add.mutate();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Add Client Lead">
      <form onSubmit={submit} className="space-y-4">
        <label className="block text-sm font-medium text-ink-900">
          Email
          <Input type="email" value={email} onChange={(event) => setEmail(event.target.value)} placeholder="client@example.com" className="mt-1" />
        </label>
        <label className="block text-sm font-medium text-ink-900">
          Custom evolution days <span className="font-normal text-slate-500">(optional, default 90)</span>
          <Input inputMode="numeric" value={days} onChange={(event) => setDays(event.target.value)} placeholder="90" className="mt-1" />
        </label>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Sending...' : 'Add & Send Magic Link'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
