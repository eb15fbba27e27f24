import type { ClientSummary } from '@spark/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { coachApi } from '../api/coach-api';
import { ErrorText } from '../../../ui/error-text';

/** Admins only: the client's "Download my data", for a client who asked by e-mail. The link goes to the client. */
export function ClientExportTab({ client }: { client: ClientSummary }) {
  // One export per opening of the tab: a press again after a failure asks for the same one.
  const [exportId] = useState(() => crypto.randomUUID());
  const exportData = useMutation({ mutationFn: () => coachApi.exportData(client.userId, exportId) });
  return (
    <div className="space-y-3" data-testid="client-export">
      <p className="text-sm text-slate-600">
        When a client asks for their data by e-mail, send them the same export they get from "Download my data": a ZIP of their profile, answers, sparks with
        files and notes, coach notes addressed to them (not private notes), Day in the Life and streak history.
      </p>
      <p className="text-sm text-slate-600">The download link goes to {client.email} only and works for 24 hours.</p>
      {exportData.isSuccess ? (
        <p className="rounded-xl bg-emerald-50 p-3 text-sm font-medium text-emerald-800" role="status">
          Export started. {client.email} will receive the download link by e-mail.
        </p>
      ) : (
        <Button disabled={exportData.isPending} onClick={() => exportData.mutate()}>
          {exportData.isPending ? 'Starting…' : 'Send data export to client'}
        </Button>
      )}
      {exportData.isError && <ErrorText>{exportData.error instanceof ApiError ? exportData.error.message : 'Could not start the export.'}</ErrorText>}
    </div>
  );
}
