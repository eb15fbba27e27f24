import type { IconName } from '../../../ui/icon';

export const featureBlocks: ReadonlyArray<{ title: string; text: string; icon: IconName }> = [
  {
    title: 'Capture Sparks',
    text: 'Snap a photo, upload a file or jot a note the moment something moves you forward. Ten seconds, even offline.',
    icon: 'spark',
  },
  {
    title: 'Track Progress',
    text: 'Streaks, spark counts and a days-left ring show exactly where you are in your 21- or 90-day evolution.',
    icon: 'chart',
  },
  {
    title: 'Transform Goals',
    text: 'Sunday alignment, Friday check-ins and a coach who reads your data turn a wish into a habit that lasts.',
    icon: 'target',
  },
];

export const howItWorks: ReadonlyArray<{ title: string; text: string }> = [
  { title: 'Share your goals', text: 'Tell us what you want to change. A coach personally reviews every request.' },
  { title: 'Capture moments', text: 'Record small daily sparks in the app as they happen, with no pressure to be perfect.' },
  { title: 'Get guidance', text: 'Your coach sees your trends and nudges you at the moments that matter most.' },
  { title: 'Track Evolutions', text: 'Finish a cycle, reflect at your pivot meeting and start the next one stronger.' },
];

export const testimonials: ReadonlyArray<{ quote: string; name: string; detail: string }> = [
  {
    quote: 'I have started a dozen habit apps. Spark is the first one where someone noticed when I slipped, and helped me back without guilt.',
    name: 'Maya R.',
    detail: 'Client, second evolution',
  },
  {
    quote: 'The Friday check-ins changed my practice. I walk into every session already knowing what my client’s week looked like.',
    name: 'Daniel K.',
    detail: 'Certified wellness coach',
  },
  {
    quote: 'Ninety days felt long until I saw my streak. Capturing one spark a day made the progress impossible to ignore.',
    name: 'Priya S.',
    detail: 'Client, 90-day cycle',
  },
];
