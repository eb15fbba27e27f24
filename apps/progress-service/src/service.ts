import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@spark/runtime';
import { CoachModule } from './coach/coach.module';
import { progressMigrations } from './migrations';
import { NotesModule } from './notes/notes.module';
import { OnboardingModule } from './onboarding/onboarding.module';
import { ProgressHomeModule } from './progress/progress.module';
import { SparksModule } from './sparks/sparks.module';

/** One feature module per folder; later features add theirs to `imports`. */
@Module({})
class ProgressModule {}

export const progressService: ServiceDefinition = {
  name: 'progress',
  entities: [],
  migrations: progressMigrations,
  module: (infrastructure) => ({
    module: ProgressModule,
    imports: [
      OnboardingModule.register(infrastructure),
      ProgressHomeModule.register(infrastructure),
      SparksModule.register(infrastructure),
      NotesModule.register(infrastructure),
      CoachModule.register(infrastructure),
    ],
  }),
};
