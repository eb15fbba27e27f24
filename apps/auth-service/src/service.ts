import { authEnv, loadConfig } from '@spark/config';
import type { ServiceDefinition, ServiceInfrastructure } from '@spark/service-runtime';
import { AuthModule } from './auth.module';
import { authMigrations } from './migrations';

export const authService: ServiceDefinition = {
  name: 'auth',
  migrations: authMigrations,
  // `this` is the definition startService was given: its env (a test stack's) holds the auth
  // settings too, which the shared service config does not parse.
  module(this: ServiceDefinition, infrastructure: ServiceInfrastructure) {
    return AuthModule.register(infrastructure, loadConfig(authEnv, this.env));
  },
};
