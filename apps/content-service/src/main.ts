import 'reflect-metadata';
import { runMain, startService } from '@spark/runtime';
import { contentService } from './service';

if (require.main === module) runMain('content-service', () => startService(contentService));
