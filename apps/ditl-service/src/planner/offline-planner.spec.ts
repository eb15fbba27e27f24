import { DEFAULT_EVOLUTION_DAYS, ditlPlanSchema, type DitlPlan, type OnboardingAnswersInput, onboardingAnswersSchema } from '@spark/contracts';
import { evaluationProfile, evaluationProfiles } from '../evaluation/profiles';
import { buildOfflinePlan } from './offline-planner';
import { planContext } from './plan-context';
import { escapeHtml } from '@spark/writing';
import { renderPresentation } from './presentation-html';

const profile = (id: string) => evaluationProfile(id).answers;
const plan = (answers: OnboardingAnswersInput) =>
  ditlPlanSchema.parse(buildOfflinePlan(planContext(onboardingAnswersSchema.parse(answers), DEFAULT_EVOLUTION_DAYS)));
const slideAt = (written: DitlPlan, time: string) => written.slides.find((slide) => slide.time === time);
const habits = (written: DitlPlan) => written.slides.map((slide) => slide.habit);

describe('the offline planner', () => {
  it('plans a night-shift nurse’s waking night, not a day she sleeps through', () => {
    const written = plan(profile('night-nurse'));
    const times = written.slides.map((slide) => slide.time);
    expect(times).toEqual(['3:00 PM', '4:30 PM', '5:30 PM', '6:30 PM', '3:00 AM', '8:15 AM', 'On your days off']);
    expect(slideAt(written, '3:00 AM')?.narrative).toContain('“Vending-machine snacks at 3 AM on shift”');
    expect(slideAt(written, '8:15 AM')?.habit).toBe('Blackout blinds down and screens off 45 minutes before your 9:00 AM bedtime.');
    expect(JSON.stringify(written)).not.toMatch(/12:30 PM|9:30 AM|I sleep from|your work as/);
  });

  it('starts an early runner’s day when he is up, and keeps the wind-down habit for the evening', () => {
    const written = plan(profile('early-runner'));
    expect(written.slides[0]).toMatchObject({ time: '5:30 AM' });
    expect(written.slides[0]?.narrative).toContain('You are up at 5:30 AM for your run.');
    const windDown = written.slides.filter((slide) => /screens off/i.test(slide.habit));
    expect(windDown.map((slide) => slide.time)).toEqual(['9:15 PM']);
  });

  it('writes to the client as “you”, quoting only a short phrase, never pasting the typical day back', () => {
    const written = JSON.stringify(plan(profile('caregiver')));
    expect(written).not.toMatch(/\bI\b|\bmy\b/);
    expect(written).not.toContain('I care for my mum');
    expect(written).toContain('look after yourself as well as you look after your mum');
  });

  it('asks the client to repeat the day for the length of their evolution, the default when none is given', () => {
    const answers = onboardingAnswersSchema.parse(profile('early-runner'));
    expect(buildOfflinePlan(planContext(answers, 60)).closing).toContain('Repeat it imperfectly for 60 days,');
    expect(plan(profile('early-runner')).closing).toContain('Repeat it imperfectly for 90 days,');
  });

  it('says kindly that it could not read the hours, and names no clock time', () => {
    const written = plan(profile('minimal'));
    expect(written.slides[0]?.narrative).toContain('did not mention times');
    expect(written.slides.map((slide) => slide.time)).toEqual(['When you wake', 'Your first break', 'When it shows up', 'Your main meal', 'Before you sleep']);
  });

  it('adds a moment for the days off only when the client describes them', () => {
    expect(plan(profile('weekend-worker')).slides.at(-1)).toMatchObject({ time: 'On your days off' });
    expect(plan(profile('weekend-worker')).slides.at(-1)?.narrative).toContain('You sleep until 10:00 AM on those days');
    expect(plan(profile('early-runner')).slides.some((slide) => slide.time === 'On your days off')).toBe(false);
  });

  it('changes what it proposes with activity level, age, family status and occupation', () => {
    const base = profile('remote-slump');
    const movement = (answers: OnboardingAnswersInput) => plan(answers).slides.find((slide) => slide.title === 'Move, sized for you')?.habit;
    expect(movement(base)).toBe('A 10-minute walk, nothing more.');
    expect(movement({ ...base, activityLevel: 'very_active' })).toBe('Your planned session, then 10 minutes of mobility to recover.');
    expect(movement({ ...base, age: 70 })).toContain('balance practice');
    expect(movement({ ...base, occupation: 'Warehouse operator' })).toContain('stretching for calves');
    const evening = (answers: OnboardingAnswersInput) => plan(answers).slides.find((slide) => slide.time === '7:00 PM')?.narrative;
    expect(evening(base)).toContain('you and your partner');
    expect(evening({ ...base, familyStatus: 'parent' })).toContain('Time with the kids');
    expect(habits(plan({ ...profile('retiree') }))).toContain('Ten sit-to-stands from a kitchen chair while the kettle boils.');
    expect(habits(plan({ ...profile('retiree'), age: 40 }))).toContain('Three sets of push-ups and squats before your shower.');
  });

  it('never gives the same habit twice', () => {
    for (const { answers } of evaluationProfiles) {
      const written = habits(
        plan({ ...answers, goalTags: ['Weight Loss', 'Fitness', 'Strength', 'Nutrition', 'Sleep', 'Productivity', 'Energy', 'Stress', 'Other'] }),
      );
      expect(new Set(written).size).toBe(written.length);
    }
  });

  it('renders an escaped, script-free page that says it came from the offline planner', () => {
    const html = renderPresentation(plan({ ...profile('minimal'), firstName: '<img src=x onerror=alert(1)>' }), 'offline', new Date());
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('offline planner');
    expect(escapeHtml(`"a" & 'b'`)).toBe('&quot;a&quot; &amp; &#39;b&#39;');
  });
});
