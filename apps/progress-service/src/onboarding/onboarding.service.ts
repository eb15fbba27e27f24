import { type CompleteOnboardingResponse, localDate, type PayloadOf } from '@spark/contracts';
import type { TimeZoneResolver } from '../progress/database-time-zones';
import { firstEvolution, fullNameOf, toOnboardingRecord } from './onboarding-record';
import type { OnboardingRepository } from './onboarding.repository';

export class OnboardingService {
  constructor(
    private readonly onboarding: OnboardingRepository,
    private readonly timeZones: TimeZoneResolver,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Saves the answers with the defaults of docs/product.md §3 and starts the first evolution today. */
  async complete({ userId, email, answers }: PayloadOf<'progress.complete-onboarding'>): Promise<CompleteOnboardingResponse> {
    const completedAt = this.now();
    const timeZone = await this.timeZones.storable(answers.timeZone ?? 'UTC');
    const { startDate, endDate } = firstEvolution(localDate(completedAt, timeZone));
    const { evolution, record } = await this.onboarding.save(
      {
        userId,
        email,
        fullName: fullNameOf(answers),
        transformationGoal: answers.transformationGoal,
        customEvolutionDays: null,
        timeZone,
        startDate,
        endDate,
      },
      (evolutionDays) => toOnboardingRecord(userId, answers, completedAt, evolutionDays),
    );
    return {
      onboarding: record,
      evolution: {
        evolutionNumber: evolution.evolution_number,
        startDate: evolution.evolution_start_date,
        endDate: evolution.evolution_end_date,
        status: evolution.status,
      },
    };
  }
}
