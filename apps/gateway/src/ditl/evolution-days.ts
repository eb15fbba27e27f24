import { cycleLengthDays } from '@spark/contracts';
import type { ServiceBus } from '@spark/messaging';

/**
 * The length of the client's evolution as their progress row holds it now (a coach's preset or edit, else the default),
 * which their Day in the Life states. Read here, never taken from the client's request: the client may not set it.
 */
export async function evolutionDaysOf(bus: ServiceBus, userId: string): Promise<number> {
  const { progress } = await bus.request('progress.get-home', { userId });
  return cycleLengthDays(progress?.customEvolutionDays);
}
