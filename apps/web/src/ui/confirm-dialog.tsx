import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The confirm button's text while the action runs ("Processing..."). */
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before an action that cannot be taken back; it cannot be dismissed while the action runs. */
export function ConfirmDialog({ title, children, confirmLabel, pendingLabel, pending, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()} title={title}>
      {children}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
