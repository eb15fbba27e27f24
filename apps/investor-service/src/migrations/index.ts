import { CreateHandledRequests1764200000000, ServiceRole1764700000000 } from '@spark/persistence';
import { ConfirmOutboxJobs1764100000000, CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateInvestors1763800000060 } from './1763800000060-create-investors';
import { HashAccessCodes1763800000061 } from './1763800000061-hash-access-codes';
import { RedactCampaignAccessCodes1765900000060 } from './1765900000060-redact-campaign-access-codes';

export const investorMigrations = [
  CreateOutbox1763800000000,
  CreateInvestors1763800000060,
  HashAccessCodes1763800000061,
  ConfirmOutboxJobs1764100000000,
  CreateHandledRequests1764200000000,
  ServiceRole1764700000000,
  RedactCampaignAccessCodes1765900000060,
];
