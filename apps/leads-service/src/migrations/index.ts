import { CreateHandledRequests1764200000000, ServiceRole1764700000000 } from '@spark/persistence';
import { ConfirmOutboxJobs1764100000000, CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateLeads1763800000001 } from './1763800000001-create-leads';
import { CoachLeadIndexes1763800000002 } from './1763800000002-coach-lead-indexes';
import { LeadCounters1763800000003 } from './1763800000003-lead-counters';
import { LeadCountersPerWriter1764500000000 } from './1764500000000-lead-counters-per-writer';

export const leadsMigrations = [
  CreateOutbox1763800000000,
  CreateLeads1763800000001,
  CoachLeadIndexes1763800000002,
  LeadCounters1763800000003,
  ConfirmOutboxJobs1764100000000,
  CreateHandledRequests1764200000000,
  LeadCountersPerWriter1764500000000,
  ServiceRole1764700000000,
];
