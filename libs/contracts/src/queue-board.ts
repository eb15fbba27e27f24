import { z } from 'zod';
import { isoDateTimeSchema, textSchema } from './common';

/** Where the gateway serves the admins' queue dashboard (Bull Board): its pages and its own API. */
export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Answer of `POST /api/admin/queue-board/tickets`: the address that opens the dashboard, carrying a
 * single-use ticket the gateway trades for the dashboard's own short-lived cookie.
 */
export const queueBoardTicketSchema = z.object({
  url: textSchema().max(300),
  expiresAt: isoDateTimeSchema,
});
export type QueueBoardTicket = z.infer<typeof queueBoardTicketSchema>;
