import 'reflect-metadata';
import { runMain, startService } from '@spark/runtime';
import { authService } from './service';

if (require.main === module) runMain('auth-service', () => startService(authService));
