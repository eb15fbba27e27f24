import 'reflect-metadata';
import { runMain, startService } from '@spark/runtime';
import { leadsService } from './service';

if (require.main === module) runMain('leads-service', () => startService(leadsService));
