import { ServiceRole1764700000000 } from '@spark/persistence';
import { CreateSentEmails1763800000010 } from './1763800000010-create-sent-emails';

export const notifierMigrations = [CreateSentEmails1763800000010, ServiceRole1764700000000];
