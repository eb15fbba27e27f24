import { z } from 'zod';
import { accountDeletionConfirmJobSchema, accountDeletionConfirmSecretsSchema, eraseAccountJobSchema } from './account-deletion';
import { codeSignInLockedJobSchema, magicLinkJobSchema, magicLinkSecretsSchema } from './auth';
import { dataExportReadyJobSchema, dataExportReadySecretsSchema, exportClientDataJobSchema } from './data-export';
import { emailSchema, isoDateTimeSchema, mailApprovalSchema, uuidSchema, textSchema } from './common';
import { ditlReadyJobSchema, generateDitlJobSchema } from './ditl';
import { investorEmailJobSchema, investorEmailSecretsSchema } from './investors';
import { sendDueRemindersJobSchema, sparkReminderMailJobSchema, sparkReminderMailSecretsSchema, sparkReminderPushJobSchema } from './reminders';
import { leadRoleSchema } from './leads';
import type { ServiceName } from './patterns';

/** BullMQ queue names. Frozen and never renamed: queued jobs would be stranded. */
export const QUEUES = Object.freeze({
  mail: 'mail',
  ditl: 'ditl',
  export: 'export',
  deletionLeads: 'account-deletion-leads',
  deletionProgress: 'account-deletion-progress',
  deletionDitl: 'account-deletion-ditl',
  deletionNotifier: 'account-deletion-notifier',
  deletionInvestor: 'account-deletion-investor',
  reminders: 'reminders',
  push: 'push',
  sparkUploads: 'spark-uploads',
  exportSweep: 'export-sweep',
  deletionPartsSweep: 'deletion-parts-sweep',
} as const);
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** The queue of each part of an account that a job erases (the auth part is erased when the deletion is confirmed). */
export const deletionQueues = {
  leads: QUEUES.deletionLeads,
  progress: QUEUES.deletionProgress,
  ditl: QUEUES.deletionDitl,
  notifier: QUEUES.deletionNotifier,
  investor: QUEUES.deletionInvestor,
} as const;
export type ErasedPart = keyof typeof deletionQueues;

/** A lead's e-mails carry the form as the visitor submitted it, with the gateway's statement of it (`createLeadCommandSchema`). */
const submittedLeadJobSchema = z.object({
  leadId: uuidSchema,
  email: emailSchema,
  role: leadRoleSchema,
  interest: textSchema().nullable(),
  submission: mailApprovalSchema,
});

export const leadConfirmationJobSchema = submittedLeadJobSchema;

export const leadAlertJobSchema = submittedLeadJobSchema.extend({ createdAt: isoDateTimeSchema });

/** The one e-mail that tells the team of the leads past the hour's cap on individual alerts, queued by the notifier itself. */
export const leadAlertDigestJobSchema = z.object({ windowStart: isoDateTimeSchema });

/**
 * Job name → payload schema, per queue. A job name is a shipped identifier like a queue
 * name: never rename one. The notifier refuses to start unless every mail job has one handler.
 */
export const mailJobs = {
  'lead-confirmation': leadConfirmationJobSchema,
  'lead-alert': leadAlertJobSchema,
  'lead-alert-digest': leadAlertDigestJobSchema,
  'magic-link': magicLinkJobSchema,
  'ditl-ready': ditlReadyJobSchema,
  'investor-email': investorEmailJobSchema,
  'code-sign-in-locked': codeSignInLockedJobSchema,
  'data-export-ready': dataExportReadyJobSchema,
  'account-deletion-confirm': accountDeletionConfirmJobSchema,
  'spark-reminder': sparkReminderMailJobSchema,
} as const;

/**
 * The mail jobs whose `sealed` field carries secrets for the notifier alone, and what it holds once opened. Every
 * service that queues mail may read the mail queue, so a field that lets its reader act for the recipient belongs here.
 */
export const sealedMailSecrets = {
  'magic-link': magicLinkSecretsSchema,
  'investor-email': investorEmailSecretsSchema,
  'account-deletion-confirm': accountDeletionConfirmSecretsSchema,
  'data-export-ready': dataExportReadySecretsSchema,
  'spark-reminder': sparkReminderMailSecretsSchema,
} as const satisfies { [N in keyof typeof mailJobs]?: z.ZodObject };
export type SealedMailJobName = keyof typeof sealedMailSecrets;
export type MailSecrets<N extends SealedMailJobName> = z.infer<(typeof sealedMailSecrets)[N]>;

/** The reminder tick (one repeating job, whichever replica takes it) and the push notifications the notifier sends. */
export const reminderJobs = { 'send-due-reminders': sendDueRemindersJobSchema } as const;
export const pushJobs = { 'spark-reminder-push': sparkReminderPushJobSchema } as const;

/** A repeating sweep (one job per run, whichever replica takes it) of spark uploads granted and never recorded. */
export const sparkUploadJobs = { 'sweep-unclaimed-uploads': z.object({}) } as const;

/** A repeating sweep (one job per run, whichever replica takes it) of data export archives past their keeping. */
export const exportSweepJobs = { 'sweep-expired-exports': z.object({}) } as const;

/**
 * A repeating sweep (one job per run, whichever auth-service replica takes it) that queues again the erase job of every
 * account deletion part still open: the deletion's parts, not Redis, say what is left to erase.
 */
export const deletionPartsSweepJobs = { 'resend-open-deletion-parts': z.object({}) } as const;

/** The DITL worker's queue: one job per generation (job id = the outbox row id). */
export const ditlJobs = {
  'generate-ditl': generateDitlJobSchema,
} as const;

/** The data export worker's queue: one job per requested archive. */
export const exportJobs = {
  'export-client-data': exportClientDataJobSchema,
} as const;

/** Each account-deletion queue (one per service that erases a part): one job per confirmed deletion. */
export const accountDeletionJobs = {
  'erase-account': eraseAccountJobSchema,
} as const;

export const jobsByQueue = {
  [QUEUES.mail]: mailJobs,
  [QUEUES.ditl]: ditlJobs,
  [QUEUES.export]: exportJobs,
  [QUEUES.deletionLeads]: accountDeletionJobs,
  [QUEUES.deletionProgress]: accountDeletionJobs,
  [QUEUES.deletionDitl]: accountDeletionJobs,
  [QUEUES.deletionNotifier]: accountDeletionJobs,
  [QUEUES.deletionInvestor]: accountDeletionJobs,
  [QUEUES.reminders]: reminderJobs,
  [QUEUES.push]: pushJobs,
  [QUEUES.sparkUploads]: sparkUploadJobs,
  [QUEUES.exportSweep]: exportSweepJobs,
  [QUEUES.deletionPartsSweep]: deletionPartsSweepJobs,
} as const;

/** The apps that queue jobs or run them: the services and the notifier. */
export type JobApp = ServiceName | 'notifier';
/** A job BullMQ's job scheduler adds by itself, with an empty payload: nobody signs it, and a copy only runs the work early. */
export const SCHEDULED = 'scheduler';
type JobProducer = JobApp | typeof SCHEDULED;

/**
 * The one app whose outbox writes each job, and which signs it. Whoever may add to a queue may also read it in Redis,
 * so a worker runs only the jobs their producer signed (libs/jobs, job-signatures.ts).
 */
export const jobProducers = {
  [QUEUES.mail]: {
    'lead-confirmation': 'leads',
    'lead-alert': 'leads',
    'lead-alert-digest': 'notifier',
    'magic-link': 'auth',
    'ditl-ready': 'ditl',
    'investor-email': 'investor',
    'code-sign-in-locked': 'auth',
    'data-export-ready': 'progress',
    'account-deletion-confirm': 'auth',
    'spark-reminder': 'progress',
  },
  [QUEUES.ditl]: { 'generate-ditl': 'ditl' },
  [QUEUES.export]: { 'export-client-data': 'progress' },
  [QUEUES.deletionLeads]: { 'erase-account': 'auth' },
  [QUEUES.deletionProgress]: { 'erase-account': 'auth' },
  [QUEUES.deletionDitl]: { 'erase-account': 'auth' },
  [QUEUES.deletionNotifier]: { 'erase-account': 'auth' },
  [QUEUES.deletionInvestor]: { 'erase-account': 'auth' },
  [QUEUES.reminders]: { 'send-due-reminders': SCHEDULED },
  [QUEUES.push]: { 'spark-reminder-push': 'progress' },
  [QUEUES.sparkUploads]: { 'sweep-unclaimed-uploads': SCHEDULED },
  [QUEUES.exportSweep]: { 'sweep-expired-exports': SCHEDULED },
  [QUEUES.deletionPartsSweep]: { 'resend-open-deletion-parts': SCHEDULED },
} as const satisfies { [Q in QueueName]: Record<JobName<Q>, JobProducer> };

/** The app whose workers run each queue's jobs. */
export const queueConsumers = {
  [QUEUES.mail]: 'notifier',
  [QUEUES.ditl]: 'ditl',
  [QUEUES.export]: 'progress',
  [QUEUES.deletionLeads]: 'leads',
  [QUEUES.deletionProgress]: 'progress',
  [QUEUES.deletionDitl]: 'ditl',
  [QUEUES.deletionNotifier]: 'notifier',
  [QUEUES.deletionInvestor]: 'investor',
  [QUEUES.reminders]: 'progress',
  [QUEUES.push]: 'notifier',
  [QUEUES.sparkUploads]: 'progress',
  [QUEUES.exportSweep]: 'progress',
  [QUEUES.deletionPartsSweep]: 'auth',
} as const satisfies Record<QueueName, JobApp>;

/** The queues whose jobs `app` runs: what its process counts in `bullmq_jobs`. */
export const queuesWorkedBy = (app: JobApp): QueueName[] => (Object.keys(queueConsumers) as QueueName[]).filter((queue) => queueConsumers[queue] === app);

/** The producer of a job, or undefined when the queue has no job of that name. */
export function jobProducerOf(queue: QueueName, name: string): JobProducer | undefined {
  const producers: Record<string, JobProducer> = jobProducers[queue];
  return Object.hasOwn(producers, name) ? producers[name] : undefined;
}

export type MailJobName = keyof typeof mailJobs;
/** A sealed mail job as its template reads it: the sealed field replaced by what it holds. */
export type OpenedMailJob<N extends SealedMailJobName> = Omit<JobPayload<typeof QUEUES.mail, N>, 'sealed'> & MailSecrets<N>;
export type JobName<Q extends QueueName> = keyof (typeof jobsByQueue)[Q] & string;
export type JobPayload<Q extends QueueName, N extends JobName<Q>> = z.infer<(typeof jobsByQueue)[Q][N] extends z.ZodType ? (typeof jobsByQueue)[Q][N] : never>;

/** Looks up the payload schema of a job, or undefined when the name is unknown. */
export function jobSchemaOf(queue: QueueName, name: string): z.ZodType | undefined {
  const jobs: Record<string, z.ZodType> = jobsByQueue[queue];
  return Object.hasOwn(jobs, name) ? jobs[name] : undefined;
}
