import type { ServiceDefinition } from '@spark/service-runtime';
import { leadEraser } from './leads/lead-erasure';
import { LeadsModule } from './leads/leads.module';
import { leadsMigrations } from './migrations';

export const leadsService: ServiceDefinition = {
  name: 'leads',
  migrations: leadsMigrations,
  module: (infrastructure) => LeadsModule.register(infrastructure),
  // The public interest form: under load, one transaction and one insert carry the leads of a whole read batch.
  groupCommit: ['leads.create'],
  accountErasure: ({ dataSource }) => ({ part: 'leads', eraser: leadEraser(dataSource) }),
};
