import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { DeleteAccountSection } from '../../account-deletion/components/delete-account-section';
import { requestDataExport } from '../api/client-app-api';

/** "Download my data": everything Spark holds about the client, as a ZIP whose link is e-mailed; and leaving for good. */
export function YourDataCard() {
  const exportData = useMutation({ mutationFn: requestDataExport });
  const failure = exportData.error instanceof ApiError && exportData.error.status !== 0 ? exportData.error.message : 'Could not reach Spark. Please try again when you are online.';
  return (
    <Card className="p-5" data-testid="your-data">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your data</p>
      <p className="mt-2 text-slate-600">
        A ZIP of everything Spark keeps about you: your profile and answers, every spark with its file and note, your coach's notes to you, your Day in the Life, and your streak history.
      </p>
      {exportData.isSuccess ? (
        <p className="mt-4 rounded-lg bg-spark-50 px-4 py-3 text-sm font-medium text-spark-800" role="status" data-testid="export-queued">
          We're preparing your data. A download link is on its way to your e-mail; it works for 24 hours.
        </p>
      ) : (
        <Button variant="secondary" className="mt-4" disabled={exportData.isPending} onClick={() => exportData.mutate()}>
          {exportData.isPending ? 'Preparing…' : 'Download my data'}
        </Button>
      )}
      {exportData.isError && (
        <p className="mt-3 text-sm text-red-700" role="alert">
          {failure}
        </p>
      )}
      <DeleteAccountSection />
    </Card>
  );
}
