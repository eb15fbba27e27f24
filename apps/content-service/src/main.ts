import 'reflect-metadata';
import { runMain } from '@spark/runtime';
import { startService } from '@spark/service-runtime';
import { contentService } from './service';

if (require.main === module) runMain('content-service', () => startService(contentService));
