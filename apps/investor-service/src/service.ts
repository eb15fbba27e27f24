import { Module } from '@nestjs/common';
import { CreateOutbox1763800000000 } from '@spark/jobs';
import type { ServiceDefinition } from '@spark/runtime';

/** Boots, migrates its schema and joins the bus; its message patterns are not built yet (see README status). */
@Module({})
class InvestorModule {}

export const investorService: ServiceDefinition = {
  name: 'investor',
  entities: [],
  migrations: [CreateOutbox1763800000000],
  module: () => ({ module: InvestorModule }),
};
