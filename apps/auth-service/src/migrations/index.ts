import { CreateOutbox1763800000000 } from '@spark/jobs';
import { CreateAuth1763800000100 } from './1763800000100-create-auth';
import { CreateAuditEvents1763800000190 } from './1763800000190-create-audit-events';

export const authMigrations = [CreateOutbox1763800000000, CreateAuth1763800000100, CreateAuditEvents1763800000190];
