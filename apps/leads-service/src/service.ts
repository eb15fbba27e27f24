import type { ServiceDefinition } from '@spark/service-runtime';
import { leadEraser } from './leads/lead-erasure';
import { LeadsModule } from './leads/leads.module';
import { leadsMigrations } from './migrations';

export const leadsService: ServiceDefinition = {
  name: 'leads',
  migrations: leadsMigrations,
  module: (infrastructure) => LeadsModule.register(infrastructure),
  accountErasure: ({ dataSource }) => ({ part: 'leads', eraser: leadEraser(dataSource) }),
};
