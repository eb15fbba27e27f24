import { CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateLeads1763800000001 } from './1763800000001-create-leads';
import { CoachLeadIndexes1763800000002 } from './1763800000002-coach-lead-indexes';

export const leadsMigrations = [CreateOutbox1763800000000, CreateLeads1763800000001, CoachLeadIndexes1763800000002];
