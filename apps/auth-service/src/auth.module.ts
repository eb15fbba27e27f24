import { type DynamicModule, Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { AuthConfig } from '@spark/config';
import { ClosedWithModule, type ServiceInfrastructure } from '@spark/service-runtime';
import { MailSealer } from '@spark/jobs';
import { Redis } from 'ioredis';
import { AccountDeletionHandler } from './account-deletion/account-deletion.handler';
import { AccountDeletionRepository } from './account-deletion/account-deletion.repository';
import { AccountDeletionService } from './account-deletion/account-deletion.service';
import { startDeletionPartsSweep } from './account-deletion/deletion-parts-sweep';
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
const MARKER_WATCH = Symbol('MARKER_WATCH');
// At most how long after Redis lost its data the gateway answers signed-in requests 503 before the markers are back.
const MARKER_LOSS_CHECK_MS = 1_000;

@Module({})
export class AuthModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    @Inject(MARKER_WATCH) private readonly markerWatch: { checked: Promise<void>; stop(): void },
  ) {}

  static register({ dataSource, outbox, logger }: ServiceInfrastructure, config: AuthConfig): DynamicModule {
    // The rate limit's and the revocation markers' own connection; closed with the module.
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
    const issuer = new SessionIssuer(config.JWT_SECRET);
    const sealer = new MailSealer(config.MAIL_SEAL_PUBLIC_KEY);
    const revocations = new SessionRevocations(redis, config.BUS_PREFIX, dataSource);
    const markerWatch = revocations.watchForLoss(MARKER_LOSS_CHECK_MS, logger);
    const deletions = new AccountDeletionRepository(dataSource);
    const sweep = startDeletionPartsSweep({ config, deletions, outbox, logger });
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
        { provide: MARKER_WATCH, useValue: markerWatch },
        { provide: SignInService, useValue: signIn },
        { provide: SessionsService, useValue: new SessionsService(new SessionsRepository(dataSource), issuer, revocations) },
        { provide: UsersService, useValue: new UsersService(new UsersRepository(dataSource), revocations, config.SIGNING_KEYS) },
        { provide: AuditService, useValue: new AuditService(new AuditRepository(dataSource)) },
        {
          provide: AccountDeletionService,
          useValue: new AccountDeletionService(deletions, revocations, outbox, { publicUrl: config.PUBLIC_URL, sealer }),
        },
        { provide: ClosedWithModule, useValue: new ClosedWithModule(() => sweep.close()) },
      ],
    };
  }

  /** Until the first check, a Redis that lost its data would refuse every signed-in request for one more interval. */
  async onModuleInit(): Promise<void> {
    await this.markerWatch.checked;
  }

  onModuleDestroy(): void {
    this.markerWatch.stop();
    this.redis.disconnect();
  }
}
