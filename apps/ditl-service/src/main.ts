import 'reflect-metadata';
import { runMain, startService } from '@spark/runtime';
import { ditlService } from './service';

if (require.main === module) runMain('ditl-service', () => startService(ditlService));
