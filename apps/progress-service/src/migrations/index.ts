import { CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateUserProgress1763800000020 } from './1763800000020-create-user-progress';

export const progressMigrations = [CreateOutbox1763800000000, CreateUserProgress1763800000020];
