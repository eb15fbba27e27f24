import { CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateGenerations1763800000050 } from './1763800000050-create-generations';

export const ditlMigrations = [CreateOutbox1763800000000, CreateGenerations1763800000050];
