import type { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { GatewayConfig } from '@spark/config';
import { AccessTokenGuard } from './access-token.guard';
import { RefreshCookie } from './refresh-cookie';

/** The global guard (deny by default) and what the auth routes need. */
export const authProviders = (config: GatewayConfig): Provider[] => [
  { provide: APP_GUARD, useValue: new AccessTokenGuard(config.JWT_SECRET) },
  { provide: RefreshCookie, useValue: new RefreshCookie(config.PUBLIC_URL) },
];
