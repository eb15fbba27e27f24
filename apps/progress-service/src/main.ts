import 'reflect-metadata';
import { runMain } from '@spark/runtime';
import { startService } from '@spark/service-runtime';
import { progressService } from './service';

if (require.main === module) runMain('progress-service', () => startService(progressService));
