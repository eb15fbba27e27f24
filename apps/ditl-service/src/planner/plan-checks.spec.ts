import { DEFAULT_EVOLUTION_DAYS, type DitlPlan, onboardingAnswersSchema } from '@spark/contracts';
import { evaluationProfile } from '../evaluation/profiles';
import { buildOfflinePlan } from './offline-planner';
import { checkPlan, type PlanCheck } from './plan-checks';
import { planContext } from './plan-context';

const nurse = planContext(onboardingAnswersSchema.parse(evaluationProfile('night-nurse').answers), DEFAULT_EVOLUTION_DAYS);
const good = buildOfflinePlan(nurse);
const withSlide = (index: number, change: Partial<DitlPlan['slides'][number]>): DitlPlan => ({
  ...good,
  slides: good.slides.map((slide, at) => (at === index ? { ...slide, ...change } : slide)),
});
const failedChecks = (plan: DitlPlan, context = nurse) => [...new Set(checkPlan(plan, context).map((violation) => violation.check))];

describe('the plan checks', () => {
  it('pass the offline plan for the night-shift nurse', () => {
    expect(checkPlan(good, nurse)).toEqual([]);
  });

  it.each<[string, DitlPlan, PlanCheck]>([
    ['a lunch walk at 12:30 PM while she sleeps', withSlide(1, { time: '12:30 PM' }), 'awake'],
    ['a slide time that is no time at all', withSlide(1, { time: 'Whenever' }), 'awake'],
    ['the challenge moved to 4:00 PM', withSlide(4, { time: '4:00 PM' }), 'challengeTimed'],
    ['screens off as a mid-shift habit', withSlide(4, { habit: 'Screens off 45 minutes before bed.' }), 'habitTiming'],
    ['a waking habit at 3 AM', withSlide(4, { habit: 'A glass of water and daylight within 15 minutes of waking.' }), 'habitTiming'],
    ['the same habit twice', withSlide(2, { habit: good.slides[0]?.habit ?? '' }), 'uniqueHabits'],
    [
      'the typical day pasted back in the first person',
      withSlide(0, { narrative: 'Your day today: I sleep from 9 AM to 3 PM, work 7 PM to 7 AM three nights a week.' }),
      'secondPerson',
    ],
    ['a narrative not addressed to the client', withSlide(1, { narrative: 'Daylight helps sleep later.' }), 'secondPerson'],
    ['a long quotation', withSlide(1, { narrative: 'You said “this is a very long quotation of many words that goes on and on and on”.' }), 'secondPerson'],
    [
      'no word about the challenge',
      {
        ...good,
        slides: good.slides.map((slide, index) => ({
          ...slide,
          title: 'A moment',
          narrative: 'You keep going.',
          habit: `Habit number ${index + 1}.`,
          sparkToCapture: 'A photo.',
        })),
      },
      'answersReflected',
    ],
    ['no days-off moment', { ...good, slides: good.slides.slice(0, -1) }, 'answersReflected'],
  ])('catch %s', (_name, plan, check) => {
    expect(failedChecks(plan)).toContain(check);
  });

  it('explain what is wrong in words a model can act on', () => {
    const [violation] = checkPlan(withSlide(1, { time: '12:30 PM' }), nurse);
    expect(violation?.message).toBe('Slide 2 (“12:30 PM”) falls while the client sleeps (9:00 AM–3:00 PM).');
  });

  it('refuse clock times when the answers give no hours', () => {
    const minimal = planContext(onboardingAnswersSchema.parse(evaluationProfile('minimal').answers), DEFAULT_EVOLUTION_DAYS);
    const plan = buildOfflinePlan(minimal);
    expect(checkPlan(plan, minimal)).toEqual([]);
    expect(failedChecks({ ...plan, slides: plan.slides.map((slide, index) => (index === 0 ? { ...slide, time: '6:30 AM' } : slide)) }, minimal)).toEqual([
      'awake',
    ]);
  });
});
