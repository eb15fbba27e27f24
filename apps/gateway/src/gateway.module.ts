import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { GatewayConfig } from '@spark/config';
import type { Logger } from '@spark/logging';
import { ServiceBus } from '@spark/messaging';
import { Redis } from 'ioredis';
import { AccountDeletionController } from './account-deletion/account-deletion.controller';
import { RemindersController, VAPID_PUBLIC_KEY } from './reminders/reminders.controller';
import { AuditController } from './audit/audit.controller';
import { AUDIT_TRAIL } from './audit/audit.interceptor';
import { AuditTrail } from './audit/audit-trail';
import { GATEWAY_LOGGER } from './gateway-logger';
import { AdminUsersController } from './auth/admin-users.controller';
import { AuthController } from './auth/auth.controller';
import { CoachClientsController } from './coach/coach-clients.controller';
import { CoachDitlController } from './coach/coach-ditl.controller';
import { CoachLeadsController } from './coach/coach-leads.controller';
import { InviteApprover } from './coach/invite-approver';
import { KeyedCommands } from './http/keyed-commands';
import { ExportGranter } from './progress/export-granter';
import { DitlController } from './ditl/ditl.controller';
import { authProviders } from './auth/auth.providers';
import { HealthController } from './health/health.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { MultipartRegistration } from './http/multipart-registration';
import { RateLimiter } from './http/rate-limiter';
import { UploadSlots } from './http/upload-slots';
import { LeadsController } from './leads/leads.controller';
import { OnboardingController } from './onboarding/onboarding.controller';
import { DataExportController } from './progress/data-export.controller';
import { QueueBoardController } from './queue-board/queue-board.controller';
import { sparksControllers, SparksModule } from './sparks/sparks.module';
import { DevLogController } from './dev-log/dev-log.controller';
import { devLogProviders } from './dev-log/dev-log.providers';
import { CampaignApprover } from './investors/campaign-approver';
import { LeadWitness } from './leads/lead-witness';
import { DitlRequestWitness } from './ditl/ditl-request-witness';
import { InvestorsAdminController } from './investors/investors-admin.controller';
import { InvestorsPublicController } from './investors/investors-public.controller';
import { investorProviders } from './investors/investors.providers';

export interface GatewayInfrastructure {
  config: GatewayConfig;
  logger: Logger;
  bus: ServiceBus;
  redis: Redis;
}

const ownControllers = [
  HealthController,
  LeadsController,
  AuthController,
  AdminUsersController,
  OnboardingController,
  DitlController,
  CoachLeadsController,
  CoachClientsController,
  CoachDitlController,
  InvestorsPublicController,
  InvestorsAdminController,
  DevLogController,
  AuditController,
  QueueBoardController,
  DataExportController,
  AccountDeletionController,
  RemindersController,
];

/** Every controller the gateway serves, its modules' included: what the route × role matrix reads. */
export const gatewayControllers = [...ownControllers, ...sparksControllers];

@Module({})
export class GatewayModule {
  static register({ config, logger, bus, redis }: GatewayInfrastructure): DynamicModule {
    const limiter = new RateLimiter(redis, config.BUS_PREFIX, config.RATE_LIMIT_FACTOR);
    const keyedCommands = new KeyedCommands(config.SIGNING_KEYS);
    const auditTrail = new AuditTrail(bus, logger, limiter, keyedCommands);
    return {
      module: GatewayModule,
      imports: [SparksModule.register({ config, bus, auditTrail, limiter, keyedCommands })],
      controllers: ownControllers,
      providers: [
        { provide: ServiceBus, useValue: bus },
        { provide: GATEWAY_LOGGER, useValue: logger },
        { provide: Redis, useValue: redis },
        MultipartRegistration,
        { provide: APP_FILTER, useValue: new AllExceptionsFilter(logger, auditTrail) },
        { provide: RateLimiter, useValue: limiter },
        // What the interceptors that @Audited() and @UploadRoute() put on their routes use.
        { provide: AUDIT_TRAIL, useValue: auditTrail },
        {
          provide: UploadSlots,
          useValue: new UploadSlots(redis, config.BUS_PREFIX, {
            perUser: config.UPLOADS_PER_USER,
            gatewayMemoryBytes: config.UPLOAD_MEMORY_MB * 1024 * 1024,
            leaseMs: config.HTTP_REQUEST_TIMEOUT_MS + 60_000,
          }),
        },
        { provide: VAPID_PUBLIC_KEY, useValue: config.VAPID_PUBLIC_KEY ?? null },
        { provide: InviteApprover, useValue: new InviteApprover(config.SIGNING_KEYS) },
        { provide: KeyedCommands, useValue: keyedCommands },
        { provide: ExportGranter, useValue: new ExportGranter(config.SIGNING_KEYS) },
        { provide: CampaignApprover, useValue: new CampaignApprover(config.SIGNING_KEYS) },
        { provide: LeadWitness, useValue: new LeadWitness(config.SIGNING_KEYS) },
        { provide: DitlRequestWitness, useValue: new DitlRequestWitness(config.SIGNING_KEYS) },
        ...authProviders(config, redis),
        ...investorProviders(config),
        ...devLogProviders(config),
      ],
    };
  }
}
