import type { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { GatewayConfig } from '@spark/config';
import type { Redis } from 'ioredis';
import { AccessTokenGuard } from './access-token.guard';
import { RefreshCookie } from './refresh-cookie';
import { SessionRevocationCheck } from './session-revocation-check';

/** The global guard (deny by default) and what the auth routes need. */
export const authProviders = (config: GatewayConfig, redis: Redis): Provider[] => [
  { provide: APP_GUARD, useValue: new AccessTokenGuard(config.JWT_SECRET, new SessionRevocationCheck(redis, config.BUS_PREFIX)) },
  { provide: RefreshCookie, useValue: new RefreshCookie(config.PUBLIC_URL) },
];
