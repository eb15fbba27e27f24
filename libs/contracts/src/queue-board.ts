import { z } from 'zod';
import { isoDateTimeSchema, textSchema } from './common';
import { type JobName, type JobPayload, type QueueName, QUEUES } from './jobs';

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

type ShownFields<Q extends QueueName> = { [N in JobName<Q>]: readonly (keyof JobPayload<Q, N> & string)[] };

const erasureFieldsShown: ShownFields<typeof QUEUES.deletionLeads> = { 'erase-account': ['deletionId'] };

/**
 * The payload fields the queue dashboard shows, per job; every other field shows as "(hidden)". A field is listed
 * only when reading it lets nobody act for its owner: sign-in and confirmation links, codes, signed download links,
 * unsubscribe tokens and push subscriptions stay off. A new job does not compile until its fields are decided here.
 */
export const jobFieldsShownOnQueueBoard: { [Q in QueueName]: ShownFields<Q> } = {
  [QUEUES.mail]: {
    'lead-confirmation': ['leadId', 'email', 'role'],
    'lead-alert': ['leadId', 'email', 'role', 'interest', 'createdAt'],
    'lead-alert-digest': ['windowStart'],
    'magic-link': ['email', 'expiresAt', 'purpose'],
    'ditl-ready': ['generationId', 'email', 'firstName'],
    'investor-email': ['deliveryId', 'campaignId', 'email'],
    'code-sign-in-locked': ['email'],
    'data-export-ready': ['email', 'expiresAt'],
    'account-deletion-confirm': ['email', 'expiresAt'],
    'spark-reminder': ['userId', 'email', 'localDate', 'dayEndsAt'],
  },
  [QUEUES.ditl]: { 'generate-ditl': ['generationId'] },
  [QUEUES.export]: { 'export-client-data': ['userId', 'email', 'requestedBy', 'exportId'] },
  [QUEUES.deletionLeads]: erasureFieldsShown,
  [QUEUES.deletionProgress]: erasureFieldsShown,
  [QUEUES.deletionDitl]: erasureFieldsShown,
  [QUEUES.deletionNotifier]: erasureFieldsShown,
  [QUEUES.deletionInvestor]: erasureFieldsShown,
  [QUEUES.reminders]: { 'send-due-reminders': [] },
  [QUEUES.push]: { 'spark-reminder-push': ['firstName', 'userId', 'localDate', 'dayEndsAt'] },
  [QUEUES.sparkUploads]: { 'sweep-unclaimed-uploads': [] },
  [QUEUES.exportSweep]: { 'sweep-expired-exports': [] },
  [QUEUES.deletionPartsSweep]: { 'resend-open-deletion-parts': [] },
};

/** The fields of a job the dashboard shows; none for a job name it does not know. */
export function jobFieldsShownOf(queue: QueueName, name: string): readonly string[] {
  const jobs: Record<string, readonly string[]> = jobFieldsShownOnQueueBoard[queue];
  return Object.hasOwn(jobs, name) ? (jobs[name] ?? []) : [];
}
