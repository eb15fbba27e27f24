import type { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { GatewayConfig } from '@spark/config';
import type { Redis } from 'ioredis';
import { QueueBoardPasses } from '../queue-board/queue-board-passes';
import { AccessTokenGuard } from './access-token.guard';
import { RefreshCookie } from './refresh-cookie';
import { SessionRevocationCheck } from './session-revocation-check';

/** The global guard (deny by default), what the auth routes need, and the queue dashboard's own sign-in. */
export const authProviders = (config: GatewayConfig, redis: Redis): Provider[] => {
  const revocations = new SessionRevocationCheck(redis, config.BUS_PREFIX);
  const guard = new AccessTokenGuard(config.JWT_SECRET, revocations);
  return [
    { provide: APP_GUARD, useValue: guard },
    // Also for the routes that check their caller before Fastify reads a large body (applyJsonBodyLimits).
    { provide: AccessTokenGuard, useValue: guard },
    { provide: RefreshCookie, useValue: new RefreshCookie(config.PUBLIC_URL) },
    { provide: QueueBoardPasses, useValue: new QueueBoardPasses(redis, config.BUS_PREFIX, config.JWT_SECRET, config.PUBLIC_URL, revocations) },
  ];
};
