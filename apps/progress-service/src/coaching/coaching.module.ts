import { type DynamicModule, Module } from '@nestjs/common';
import type { ModelConfig } from '@spark/config';
import type { ServiceInfrastructure } from '@spark/service-runtime';
import { CoachClientsRepository } from '../coach/coach-clients.repository';
import { RestDaysRepository } from '../rest-days/rest-days.repository';
import { CoachingHandler } from './coaching.handler';
import { CoachingRepository } from './coaching.repository';
import { CoachingService } from './coaching.service';
import { type CoachingDraftWriter, ModelDraftWriter, OfflineDraftWriter } from './draft-writer';

export interface CoachingSettings extends ModelConfig {
  COACHING_MODEL_TIMEOUT_MS: number;
}

export function draftWriterFor(config: CoachingSettings, infrastructure: ServiceInfrastructure): CoachingDraftWriter {
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) return new OfflineDraftWriter();
  return new ModelDraftWriter(
    { apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.COACHING_MODEL_TIMEOUT_MS },
    infrastructure.logger,
  );
}

@Module({})
export class CoachingModule {
  static register(infrastructure: ServiceInfrastructure, config: CoachingSettings): DynamicModule {
    const { dataSource } = infrastructure;
    const restDays = new RestDaysRepository(dataSource);
    return {
      module: CoachingModule,
      controllers: [CoachingHandler],
      providers: [
        {
          provide: CoachingService,
          useValue: new CoachingService(
            new CoachClientsRepository(dataSource),
            new CoachingRepository(dataSource),
            draftWriterFor(config, infrastructure),
            (userId, from, to) => restDays.pauseDays(userId, from, to),
          ),
        },
      ],
    };
  }
}
