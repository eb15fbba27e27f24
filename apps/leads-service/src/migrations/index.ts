import { CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateLeads1763800000001 } from './1763800000001-create-leads';

export const leadsMigrations = [CreateOutbox1763800000000, CreateLeads1763800000001];
