import { investorEnv, loadConfig } from '@spark/config';
import type { ServiceDefinition, ServiceInfrastructure } from '@spark/service-runtime';
import { investorEraser } from './investors/investor-erasure';
import { InvestorsModule } from './investors/investors.module';
import { investorMigrations } from './migrations';

export const investorService: ServiceDefinition = {
  name: 'investor',
  migrations: investorMigrations,
  // `this` is the definition startService was given: its env (a test stack's) holds the investor
  // settings too, which the shared service config does not parse.
  module(this: ServiceDefinition, infrastructure: ServiceInfrastructure) {
    return InvestorsModule.register(infrastructure, loadConfig(investorEnv, this.env));
  },
  accountErasure: ({ dataSource }) => ({ part: 'investor', eraser: investorEraser(dataSource) }),
};
