import type { ServiceDefinition } from '@spark/service-runtime';
import { investorEraser } from './investors/investor-erasure';
import { InvestorsModule } from './investors/investors.module';
import { investorMigrations } from './migrations';

export const investorService: ServiceDefinition = {
  name: 'investor',
  migrations: investorMigrations,
  module: (infrastructure) => InvestorsModule.register(infrastructure),
  accountErasure: ({ dataSource }) => ({ part: 'investor', eraser: investorEraser(dataSource) }),
};
