import { type ReactNode, useState } from 'react';
import { failureMessage } from '../api/client';
import { Button, type ButtonVariant } from './button';
import { ErrorText } from './error-text';

interface AskFirstProps {
  /** The link-like button that opens the question, and its look. */
  opener: { label: string; className: string };
  /** What the action does, said before it is done. */
  question: ReactNode;
  confirm: { label: string; busyLabel: string; variant: ButtonVariant };
  busy: boolean;
  onConfirm: () => void;
  /** The action's failure, shown under it in the server's words. */
  error: unknown;
}

/** An action too weighty for one click, asked about in place (no dialog): the question, then the action or Cancel. */
export function AskFirst({ opener, question, confirm, busy, onConfirm, error }: AskFirstProps) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      {asking ? (
        <div>
          <p className="text-sm text-slate-700">{question}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant={confirm.variant} disabled={busy} onClick={onConfirm}>
              {busy ? confirm.busyLabel : confirm.label}
            </Button>
            <Button variant="ghost" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <button type="button" className={opener.className} onClick={() => setAsking(true)}>
          {opener.label}
        </button>
      )}
      {error !== null && error !== undefined && <ErrorText className="mt-3">{failureMessage(error)}</ErrorText>}
    </>
  );
}
