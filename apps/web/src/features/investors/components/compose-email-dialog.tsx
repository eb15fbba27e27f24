import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { fieldClasses, Input } from '../../../ui/input';
import { toast } from '../../../ui/toaster';
import { failureMessage } from '../../../api/client';
import { sendCampaign } from '../api/investors-api';

export interface ComposeDraft {
  emails: string[];
  subject: string;
  body: string;
}

/** The composer: edit -> confirm -> sending; answers how many e-mails went out. */
export function ComposeEmailDialog({ draft, onClose, onSent }: { draft: ComposeDraft; onClose: () => void; onSent: () => void }) {
  const [subject, setSubject] = useState(draft.subject);
  const [body, setBody] = useState(draft.body);
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  // One id for every send of this dialog: a second "Confirm & Send" after an error is the same campaign, never two.
  const [campaignId] = useState(() => crypto.randomUUID());
  const send = useMutation({
    mutationFn: () => sendCampaign({ campaignId, emails: draft.emails, subject, body }),
    onSuccess: (campaign) => {
      if (campaign.failed > 0 || campaign.pending > 0) {
        toast.error('Some emails failed', { description: `${campaign.failed} of ${campaign.total} failed: ${campaign.failedEmails.join(', ')}` });
      } else toast.success(`Sent ${campaign.sent} email${campaign.sent === 1 ? '' : 's'}`);
      if (campaign.sent > 0) onSent();
      onClose();
    },
    onError: (error) => {
      toast.error('Failed to send emails', { description: failureMessage(error) });
      setConfirming(false);
    },
  });
  const review = () => {
    const problems = [...(subject.trim() ? [] : ['Subject required']), ...(body.trim() ? [] : ['Message required'])];
    setErrors(problems);
    if (problems.length === 0) setConfirming(true);
  };
  const recipients = `${draft.emails.length} investor${draft.emails.length === 1 ? '' : 's'}`;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Email ${recipients}`}>
      {confirming ? (
        <div className="space-y-4">
          <p className="text-slate-700">
            Send <strong>{subject}</strong> to {recipients}?
          </p>
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={send.isPending}>
              Back
            </Button>
            <Button onClick={() => send.mutate()} disabled={send.isPending}>
              {send.isPending ? 'Sending...' : 'Confirm & Send'}
            </Button>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="truncate text-sm text-slate-600">To: {draft.emails.join(', ')}</p>
          <Input aria-label="Subject" placeholder="Subject" value={subject} onChange={(event) => setSubject(event.target.value)} />
          <textarea
            aria-label="Message"
            placeholder="Message"
            rows={8}
            className={fieldClasses}
            value={body}
            onChange={(event) => setBody(event.target.value)}
          />
          {errors.length > 0 && (
            <ul role="alert" className="text-sm text-red-800">
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          )}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={review}>Review</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
