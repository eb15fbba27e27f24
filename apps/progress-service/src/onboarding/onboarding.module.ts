import { type DynamicModule, Module } from '@nestjs/common';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import type { TimeZoneResolver } from '../progress/database-time-zones';
import { OnboardingHandler } from './onboarding.handler';
import { OnboardingRepository } from './onboarding.repository';
import { OnboardingService } from './onboarding.service';

@Module({})
export class OnboardingModule {
  static register({ dataSource }: ServiceInfrastructure, timeZones: TimeZoneResolver): DynamicModule {
    return {
      module: OnboardingModule,
      controllers: [OnboardingHandler],
      providers: [{ provide: OnboardingService, useValue: new OnboardingService(new OnboardingRepository(dataSource), timeZones) }],
    };
  }
}
