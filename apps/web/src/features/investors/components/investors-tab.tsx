import type { GenerateAccessCodeResponse, Investor } from '@spark/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Dialog } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import { ListFailed, ListLoading, ListMore } from '../../../ui/list-states';
import { toast } from '../../../ui/toaster';
import { investorPages } from '../api/investor-pages';
import { investorKeys, investorsApi } from '../api/investors-api';
import { ComposeEmailDialog, type ComposeDraft } from './compose-email-dialog';
import { DeckUploads } from './deck-uploads';
import { InvestorRow } from './investor-row';
import { ErrorText } from '../../../ui/error-text';

const codeDraft = (investor: Investor, code: GenerateAccessCodeResponse): ComposeDraft => ({
  emails: [investor.email],
  subject: 'Your access code for the Spark investor deck',
  body: `Hello,\n\nThank you for your interest in Spark. Your personal access code for the full investor deck is:\n\n${code.accessCode}\n\nEnter it with this e-mail address at ${window.location.origin}/donate to download the deck. It works until ${new Date(code.expiresAt).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' })}.\n\nWarm regards,\nThe Spark team`,
});

function AddInvestorDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const add = useMutation({
    mutationFn: () => investorsApi.create(email),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: investorKeys.all });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Add Investor">
      <form className="space-y-4" onSubmit={submit}>
        <Input
          type="email"
          required
          aria-label="Investor email"
          placeholder="investor@fund.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        {add.isError && <ErrorText>Failed to create investor. Email may already exist.</ErrorText>}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add Investor'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The coach dashboard's Investors tab (admins only). */
export default function InvestorsTab() {
  const queryClient = useQueryClient();
  const investors = useInfiniteQuery(investorPages);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<ComposeDraft | null>(null);
  const items = investors.data?.pages.flatMap((page) => page.items) ?? [];
  const allSelected = items.length > 0 && !investors.hasNextPage && items.every((investor) => selected.has(investor.email));
  const [selectingAll, setSelectingAll] = useState(false);
  /** Every investor, not only the pages shown: the pages not loaded yet are loaded first, the box ticked meanwhile. */
  const selectEveryInvestor = async () => {
    setSelectingAll(true);
    let loaded = investors;
    while (loaded.hasNextPage && !loaded.isError) loaded = await loaded.fetchNextPage();
    setSelectingAll(false);
    if (loaded.isError) return toast.error('Investors could not be loaded. Please try again.');
    setSelected(new Set(loaded.data?.pages.flatMap((page) => page.items.map((investor) => investor.email))));
  };
  const toggle = (email: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(email)) next.add(email);
      return next;
    });
  const afterSend = () => {
    setSelected(new Set());
    void queryClient.invalidateQueries({ queryKey: investorKeys.all });
  };
  return (
    <div className="space-y-6">
      <Card>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-xl font-semibold text-ink-950">Investor Communications</h2>
            {investors.data && <p className="text-sm text-slate-600">{investors.data.pages[0]?.total} investors</p>}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setAdding(true)}>
              Add Investor
            </Button>
            <Button disabled={selected.size === 0} onClick={() => setDraft({ emails: [...selected], subject: '', body: '' })}>
              Compose Email ({selected.size})
            </Button>
          </div>
        </div>
        <div className="mt-5 flex items-center gap-3 text-sm">
          <label className="flex items-center gap-2 font-medium text-ink-900">
            <input
              type="checkbox"
              className="size-5 accent-spark-500"
              checked={allSelected || selectingAll}
              disabled={selectingAll}
              onChange={() => (allSelected ? setSelected(new Set()) : void selectEveryInvestor())}
            />
            Select all
          </label>
          <Button variant="ghost" onClick={() => setSelected(new Set())} disabled={selected.size === 0}>
            Clear Selection
          </Button>
        </div>
        {investors.isPending && <ListLoading />}
        {investors.isError && <ListFailed message="Investors could not be loaded." onRetry={() => void investors.refetch()} />}
        {investors.data && items.length === 0 && (
          <p className="mt-6 rounded-xl bg-slate-50 p-6 text-center text-slate-600">
            No investors yet. Investors appear here when visitors express interest via /donate.
          </p>
        )}
        <ul className="mt-4">
          {items.map((investor) => (
            <InvestorRow
              key={investor.id}
              investor={investor}
              selected={selected.has(investor.email)}
              onToggle={() => toggle(investor.email)}
              onSendCode={(code) => setDraft(codeDraft(investor, code))}
            />
          ))}
        </ul>
        <ListMore list={investors} />
      </Card>
      <DeckUploads />
      {adding && <AddInvestorDialog onClose={() => setAdding(false)} />}
      {draft && <ComposeEmailDialog draft={draft} onClose={() => setDraft(null)} onSent={afterSend} />}
    </div>
  );
}
