import { CreateHandledRequests1764200000000, ServiceRole1764700000000 } from '@spark/persistence';
import { ConfirmOutboxJobs1764100000000, CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateGenerations1763800000050 } from './1763800000050-create-generations';
import { GenerationsByUser1763800000051 } from './1763800000051-generations-by-user';
import { PlansAndCoachEdits1763800000052 } from './1763800000052-plans-and-coach-edits';
import { OneActiveGeneration1764200000053 } from './1764200000053-one-active-generation';
import { GenerationRequests1764900000054 } from './1764900000054-generation-requests';
import { GenerationClaims1765000000055 } from './1765000000055-generation-claims';
import { ErasedUsers1765000000056 } from './1765000000056-erased-users';
import { GenerationEvolutionDays1765300000057 } from './1765300000057-generation-evolution-days';
import { GenerationRequestIds1765700000058 } from './1765700000058-generation-request-ids';

export const ditlMigrations = [
  CreateOutbox1763800000000,
  CreateGenerations1763800000050,
  GenerationsByUser1763800000051,
  PlansAndCoachEdits1763800000052,
  ConfirmOutboxJobs1764100000000,
  CreateHandledRequests1764200000000,
  OneActiveGeneration1764200000053,
  ServiceRole1764700000000,
  GenerationRequests1764900000054,
  GenerationClaims1765000000055,
  ErasedUsers1765000000056,
  GenerationEvolutionDays1765300000057,
  GenerationRequestIds1765700000058,
];
