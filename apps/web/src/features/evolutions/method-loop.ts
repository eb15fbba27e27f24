import type { IconName } from '../../ui/icon';

export interface MethodStep {
  name: string;
  summary: string;
  icon: IconName;
}

/** The loop of the method: each pass through it strengthens the habit (docs/product.md §1). */
export const methodLoop: readonly MethodStep[] = [
  {
    name: 'Pivot',
    summary: 'A pivot meeting sets the transformational goal for the cycle, and later reflects on what changed and why.',
    icon: 'target',
  },
  {
    name: 'Alignment',
    summary: 'Every Sunday you align the week’s tasks with your goal, so each day has one clear, doable next step.',
    icon: 'compass',
  },
  {
    name: 'Interrogation',
    summary: 'We investigate the what behind the why: the moments, triggers and patterns that really drive a behaviour.',
    icon: 'search',
  },
  {
    name: 'Transformation',
    summary: 'Small wins compound into identity. Iterating the loop is what turns an effort into a habit that lasts.',
    icon: 'refresh',
  },
];
