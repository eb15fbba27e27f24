import { useMutation } from '@tanstack/react-query';
import { AskFirst } from '../../../ui/ask-first';
import { accountDeletionApi } from '../api/account-deletion-api';

/** "Delete my account" on the client home: asks first, then e-mails the link that confirms; nothing is deleted here. */
export function DeleteAccountSection() {
  const request = useMutation({ mutationFn: accountDeletionApi.request });
  return (
    <div className="mt-5 border-t border-slate-100 pt-4" data-testid="delete-account">
      {request.isSuccess ? (
        <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm font-medium text-slate-800" role="status">
          Check your e-mail: the link to confirm deleting your account works for 30 minutes. Nothing is deleted until you use it.
        </p>
      ) : (
        <AskFirst
          opener={{ label: 'Delete my account', className: 'text-sm font-semibold text-red-700 hover:underline' }}
          question="Deleting your account erases your sparks, notes, Day in the Life and history for good. We'll e-mail you a link to confirm; nothing is deleted until you use it."
          confirm={{ label: 'E-mail me the confirmation link', busyLabel: 'Sending…', variant: 'danger' }}
          busy={request.isPending}
          onConfirm={() => request.mutate()}
          error={request.error}
        />
      )}
    </div>
  );
}
