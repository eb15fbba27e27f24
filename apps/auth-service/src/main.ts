import 'reflect-metadata';
import { runMain } from '@spark/runtime';
import { startService } from '@spark/service-runtime';
import { authService } from './service';

if (require.main === module) runMain('auth-service', () => startService(authService));
