import { IMMEDIATE_EXPORT_MAX_BYTES } from '@spark/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { failureMessage } from '../../../api/client';
import { Button, buttonClasses } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { DeleteAccountSection } from '../../account-deletion/components/delete-account-section';
import { SignOutEverywhereSection } from '../../auth/components/sign-out-everywhere-section';
import { fetchExportStatus, requestDataExport } from '../api/client-app-api';
import { ErrorText } from '../../../ui/error-text';

// How long the page waits for a small archive before leaving it to the e-mail.
const WAIT_IN_PAGE_MS = 90_000;

/** A small export is waited for here and offered at once; a large one only by the e-mailed link. */
function ReadyInPage({ exportId }: { exportId: string }) {
  const [startedAt] = useState(() => Date.now());
  const status = useQuery({
    queryKey: ['progress', 'export', exportId],
    queryFn: () => fetchExportStatus(exportId),
    refetchInterval: (query) => (query.state.data?.status === 'ready' || Date.now() - startedAt > WAIT_IN_PAGE_MS ? false : 2000),
  });
  if (status.data?.status !== 'ready' || !status.data.downloadUrl) return null;
  return (
    <a href={status.data.downloadUrl} download="spark-data.zip" className={buttonClasses('primary', 'md', 'mt-3 inline-flex')}>
      Download now
    </a>
  );
}

/** "Download my data": everything Spark holds about the client, as a ZIP whose link is e-mailed; signing out everywhere; and leaving for good. */
export function YourDataCard() {
  // One export per visit of the card: a press again after a failure asks for the same one.
  const [exportId] = useState(() => crypto.randomUUID());
  const exportData = useMutation({ mutationFn: () => requestDataExport(exportId) });
  return (
    <Card className="p-5" data-testid="your-data">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your data</p>
      <p className="mt-2 text-slate-600">
        A ZIP of everything Spark keeps about you: your profile and answers, every spark with its file and note, your coach's notes to you, your Day in the
        Life, and your streak history.
      </p>
      {exportData.isSuccess ? (
        <>
          <p className="mt-4 rounded-lg bg-spark-50 px-4 py-3 text-sm font-medium text-spark-800" role="status" data-testid="export-queued">
            We're preparing your data. A download link is on its way to your e-mail; it works for 24 hours.
          </p>
          {exportData.data.estimatedBytes <= IMMEDIATE_EXPORT_MAX_BYTES && <ReadyInPage exportId={exportData.data.exportId} />}
        </>
      ) : (
        <Button variant="secondary" className="mt-4" disabled={exportData.isPending} onClick={() => exportData.mutate()}>
          {exportData.isPending ? 'Preparing…' : 'Download my data'}
        </Button>
      )}
      {exportData.isError && <ErrorText className="mt-3">{failureMessage(exportData.error)}</ErrorText>}
      <SignOutEverywhereSection />
      <DeleteAccountSection />
    </Card>
  );
}
