import type { QueueBoardTicket } from '@spark/contracts';
import { useState } from 'react';
import { apiRequest } from '../../../api/client';
import { Button } from '../../../ui/button';
import { toast } from '../../../ui/toaster';

/**
 * Admins only: opens the queue dashboard (Bull Board, served by the gateway at /admin/queues). A page
 * load carries no access token, so the button first asks for a single-use ticket and opens its address.
 */
export function QueuesButton() {
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      const ticket = await apiRequest<QueueBoardTicket>('POST', '/admin/queue-board/tickets');
      window.location.assign(ticket.url);
    } catch {
      setOpening(false);
      toast.error('Could not open the queue dashboard. Please try again.');
    }
  };
  return (
    <Button variant="inverse" disabled={opening} onClick={() => void open()}>
      Queues
    </Button>
  );
}
