import { Module } from '@nestjs/common';
import { loadConfig, progressEnv } from '@spark/config';
import type { ServiceDefinition, ServiceInfrastructure } from '@spark/service-runtime';
import { CoachModule } from './coach/coach.module';
import { CoachingModule } from './coaching/coaching.module';
import { progressEraser } from './erasure/progress-erasure';
import { ExportModule } from './export/export.module';
import { progressMigrations } from './migrations';
import { NotesModule } from './notes/notes.module';
import { OnboardingModule } from './onboarding/onboarding.module';
import { DatabaseTimeZones } from './progress/database-time-zones';
import { ProgressHomeModule } from './progress/progress.module';
import { RemindersModule } from './reminders/reminders.module';
import { SparksModule } from './sparks/sparks.module';

/** One feature module per folder; later features add theirs to `imports`. */
@Module({})
class ProgressModule {}

export const progressService: ServiceDefinition = {
  name: 'progress',
  migrations: progressMigrations,
  // `this` is the definition startService was given: its env (a test stack's) holds the progress
  // settings too, which the shared service config does not parse.
  module(this: ServiceDefinition, infrastructure: ServiceInfrastructure) {
    const config = loadConfig(progressEnv, this.env);
    // One cache of the database's zone names for every writer of a client's zone.
    const timeZones = new DatabaseTimeZones(infrastructure.dataSource);
    return {
      module: ProgressModule,
      imports: [
        OnboardingModule.register(infrastructure, timeZones),
        ProgressHomeModule.register(infrastructure),
        SparksModule.register(infrastructure, { timeZones, config }),
        NotesModule.register(infrastructure),
        CoachModule.register(infrastructure),
        CoachingModule.register(infrastructure, config),
        ExportModule.register(infrastructure, config),
        RemindersModule.register(infrastructure, config),
      ],
    };
  },
  accountErasure(this: ServiceDefinition, { dataSource }: ServiceInfrastructure) {
    return { part: 'progress', eraser: progressEraser(dataSource, loadConfig(progressEnv, this.env)) };
  },
};
