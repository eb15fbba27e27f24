import 'reflect-metadata';
import { runMain, startService } from '@spark/runtime';
import { investorService } from './service';

if (require.main === module) runMain('investor-service', () => startService(investorService));
