import { type DynamicModule, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import type { AuthConfig } from '@spark/config';
import type { Logger } from '@spark/logging';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { MailSealer } from '@spark/jobs';
import { Redis } from 'ioredis';
import { AccountDeletionHandler } from './account-deletion/account-deletion.handler';
import { AccountDeletionRepository } from './account-deletion/account-deletion.repository';
import { AccountDeletionService } from './account-deletion/account-deletion.service';
import { AuditHandler } from './audit/audit.handler';
import { AuditRepository } from './audit/audit.repository';
import { AuditService } from './audit/audit.service';
import { AuthHandler } from './auth.handler';
import { SessionIssuer } from './sessions/session-issuer';
import { SessionRevocations } from './sessions/session-revocations';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { MailCooldown } from './sign-in/mail-cooldown';
import { SignInRepository } from './sign-in/sign-in.repository';
import { SignInService } from './sign-in/sign-in.service';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

const AUTH_REDIS = Symbol('AUTH_REDIS');
const RESTORE_RETRY_MS = 5_000;

/** Until it succeeds while the connection stays ready: PostgreSQL may be the one still coming back. */
function restoreMarkers(redis: Redis, revocations: SessionRevocations, logger: Logger): void {
  revocations.restore().then(
    (restored) => restored > 0 && logger.info({ restored }, 'revocation markers written back to Redis'),
    (error: unknown) => {
      logger.warn({ err: error }, 'could not write the revocation markers back to Redis; retrying');
      setTimeout(() => redis.status === 'ready' && restoreMarkers(redis, revocations, logger), RESTORE_RETRY_MS).unref();
    },
  );
}

@Module({})
export class AuthModule implements OnModuleDestroy {
  constructor(@Inject(AUTH_REDIS) private readonly redis: Redis) {}

  static register({ dataSource, outbox, logger }: ServiceInfrastructure, config: AuthConfig): DynamicModule {
    // The rate limit's and the revocation markers' own connection; closed with the module.
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
    const issuer = new SessionIssuer(config.JWT_SECRET);
    const sealer = new MailSealer(config.MAIL_SEAL_PUBLIC_KEY);
    const revocations = new SessionRevocations(redis, config.BUS_PREFIX, dataSource);
    // Every (re)connection: a Redis that restarted empty gets the markers of recently ended sessions back.
    redis.on('ready', () => restoreMarkers(redis, revocations, logger));
    const signIn = new SignInService(new SignInRepository(dataSource), new MailCooldown(redis, config.BUS_PREFIX), issuer, outbox, {
      publicUrl: config.PUBLIC_URL,
      codePepper: config.JWT_SECRET,
      developmentMode: config.AUTH_DEVELOPMENT_MODE,
      sealer,
      signingKeys: config.SIGNING_KEYS,
    });
    return {
      module: AuthModule,
      controllers: [AuthHandler, AuditHandler, AccountDeletionHandler],
      providers: [
        { provide: AUTH_REDIS, useValue: redis },
        { provide: SignInService, useValue: signIn },
        { provide: SessionsService, useValue: new SessionsService(new SessionsRepository(dataSource), issuer, revocations) },
        { provide: UsersService, useValue: new UsersService(new UsersRepository(dataSource), revocations, config.SIGNING_KEYS) },
        { provide: AuditService, useValue: new AuditService(new AuditRepository(dataSource)) },
        {
          provide: AccountDeletionService,
          useValue: new AccountDeletionService(new AccountDeletionRepository(dataSource), revocations, outbox, { publicUrl: config.PUBLIC_URL, sealer }),
        },
      ],
    };
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
