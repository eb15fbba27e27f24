import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { failureMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { accountDeletionApi } from '../api/account-deletion-api';

/** "Delete my account" on the client home: asks first, then e-mails the link that confirms; nothing is deleted here. */
export function DeleteAccountSection() {
  const [asking, setAsking] = useState(false);
  const request = useMutation({ mutationFn: accountDeletionApi.request });
  return (
    <div className="mt-5 border-t border-slate-100 pt-4" data-testid="delete-account">
      {request.isSuccess ? (
        <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm font-medium text-slate-800" role="status">
          Check your e-mail: the link to confirm deleting your account works for 30 minutes. Nothing is deleted until you use it.
        </p>
      ) : asking ? (
        <div>
          <p className="text-sm text-slate-700">
            Deleting your account erases your sparks, notes, Day in the Life and history for good. We'll e-mail you a link to confirm; nothing is deleted until
            you use it.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="danger" disabled={request.isPending} onClick={() => request.mutate()}>
              {request.isPending ? 'Sending…' : 'E-mail me the confirmation link'}
            </Button>
            <Button variant="ghost" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <button type="button" className="text-sm font-semibold text-red-700 hover:underline" onClick={() => setAsking(true)}>
          Delete my account
        </button>
      )}
      {request.isError && (
        <p className="mt-3 text-sm text-red-700" role="alert">
          {failureMessage(request.error)}
        </p>
      )}
    </div>
  );
}
