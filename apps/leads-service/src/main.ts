import 'reflect-metadata';
import { runMain } from '@spark/runtime';
import { startService } from '@spark/service-runtime';
import { leadsService } from './service';

if (require.main === module) runMain('leads-service', () => startService(leadsService));
