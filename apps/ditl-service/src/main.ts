import 'reflect-metadata';
import { runMain } from '@spark/runtime';
import { startService } from '@spark/service-runtime';
import { ditlService } from './service';

if (require.main === module) runMain('ditl-service', () => startService(ditlService));
