import type { ServiceDefinition } from '@spark/service-runtime';
import { InvestorsModule } from './investors/investors.module';
import { investorMigrations } from './migrations';

export const investorService: ServiceDefinition = {
  name: 'investor',
  migrations: investorMigrations,
  module: (infrastructure) => InvestorsModule.register(infrastructure),
};
