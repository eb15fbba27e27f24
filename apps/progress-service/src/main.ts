import 'reflect-metadata';
import { runMain, startService } from '@spark/runtime';
import { progressService } from './service';

if (require.main === module) runMain('progress-service', () => startService(progressService));
