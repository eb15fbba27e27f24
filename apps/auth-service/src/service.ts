import { authEnv, loadConfig } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import type { ServiceDefinition, ServiceInfrastructure } from '@spark/service-runtime';
import { AuthModule } from './auth.module';
import { authMigrations } from './migrations';

export const authService: ServiceDefinition = {
  name: 'auth',
  migrations: authMigrations,
  // Its sweep of open deletion parts: a run that keeps failing shows in `bullmq_jobs`.
  queues: [QUEUES.deletionPartsSweep],
  // `this` is the definition startService was given: its env (a test stack's) holds the auth
  // settings too, which the shared service config does not parse.
  module(this: ServiceDefinition, infrastructure: ServiceInfrastructure) {
    return AuthModule.register(infrastructure, loadConfig(authEnv, this.env));
  },
};
