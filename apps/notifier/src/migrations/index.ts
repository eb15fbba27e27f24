import { ServiceRole1764700000000 } from '@spark/persistence';
import { CreateSentEmails1763800000010 } from './1763800000010-create-sent-emails';
import { ErasedRecipients1765000000010 } from './1765000000010-erased-recipients';
import { LeadAlertCap1765400000010 } from './1765400000010-lead-alert-cap';

export const notifierMigrations = [CreateSentEmails1763800000010, ServiceRole1764700000000, ErasedRecipients1765000000010, LeadAlertCap1765400000010];
