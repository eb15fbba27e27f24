import type { IconName } from '../../ui/icon';

export interface SparkProduct {
  id: 'spark-app' | 'coach-dashboard' | 'plan-generator' | 'pattern-engine';
  name: string;
  tagline: string;
  summary: string;
  highlights: readonly string[];
  icon: IconName;
}

/** The four tools of the ecosystem (docs/product.md §1), shared by the landing and products pages. */
export const sparkProducts: readonly SparkProduct[] = [
  {
    id: 'spark-app',
    name: 'The Spark',
    tagline: 'The client app',
    summary: 'Capture the small daily moments that move you forward: a photo, a file or a quick note, in seconds, even offline.',
    highlights: ['One-tap spark capture', 'Streaks and evolution progress', 'Works offline, syncs later'],
    icon: 'spark',
  },
  {
    id: 'coach-dashboard',
    name: 'Coach Dashboard',
    tagline: 'For coaches',
    summary: 'See every client’s trends at a glance, send a timely nudge and guide each transformation with real data.',
    highlights: ['Lead review and approval', 'Client trends and streaks', 'Pinned notes and nudges'],
    icon: 'users',
  },
  {
    id: 'plan-generator',
    name: 'Evolution Planner',
    tagline: 'AI plan generator',
    summary: 'Turns weeks of behavioural data into a daily plan of habits sized for the life you actually live.',
    highlights: ['Plans built from your own data', 'A personalised “Day in the Life”', 'Adjusts every cycle'],
    icon: 'wand',
  },
  {
    id: 'pattern-engine',
    name: 'Pattern Engine',
    tagline: 'Local AI processing',
    summary: 'Finds the behavioural patterns behind your wins and your slips, processed locally so your data stays yours.',
    highlights: ['Pattern and trigger detection', 'Private, local processing', 'Insights your coach can act on'],
    icon: 'cpu',
  },
];
