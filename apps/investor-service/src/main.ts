import 'reflect-metadata';
import { runMain } from '@spark/runtime';
import { startService } from '@spark/service-runtime';
import { investorService } from './service';

if (require.main === module) runMain('investor-service', () => startService(investorService));
