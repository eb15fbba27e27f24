import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { classNames } from './class-names';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  // "sheet" slides in from the right (mobile menu), "center" is a modal card.
  placement?: 'center' | 'sheet';
}

/** Accessible modal on Radix: focus trap, Escape to close, scroll lock, labelled by its title. */
export function Dialog({ open, onOpenChange, title, children, placement = 'center' }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-ink-950/60 backdrop-blur-sm" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className={classNames(
            'fixed z-50 bg-white shadow-2xl focus:outline-none',
            placement === 'sheet'
              ? 'inset-y-0 right-0 w-[85%] max-w-sm overflow-y-auto p-6'
              : 'top-1/2 left-1/2 w-[92%] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-2xl p-6',
          )}
        >
          <div className="mb-4 flex items-center justify-between gap-4">
            <RadixDialog.Title className="text-lg font-semibold text-ink-950">{title}</RadixDialog.Title>
            <RadixDialog.Close
              className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-spark-500"
              aria-label="Close"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
                <path
                  fill="currentColor"
                  d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z"
                />
              </svg>
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
