import { ditlPlanSchema, onboardingAnswersSchema } from '@spark/contracts';
import { buildOfflinePlan } from './offline-planner';
import { escapeHtml, renderPresentation } from './presentation-html';

const answers = onboardingAnswersSchema.parse({
  firstName: 'Maya',
  transformationGoal: 'Sleep eight hours',
  goalTags: ['Sleep', 'Stress'],
  age: 34,
  activityLevel: 'sedentary',
  familyStatus: 'parent',
  typicalDay: 'Office job, two kids',
  biggestChallenge: 'Late-night scrolling',
  customEvolutionDays: 21,
});

describe('the offline planner', () => {
  it('writes a plan the model schema accepts, personalised from the answers', () => {
    const plan = ditlPlanSchema.parse(buildOfflinePlan(answers));
    const text = JSON.stringify(plan);
    expect(plan.title).toBe("Maya's Day in the Life");
    expect(text).toContain('Late-night scrolling');
    expect(text).toContain('a 10-minute walk after lunch');
    expect(text).toContain('screens off 45 minutes before bed');
    expect(text).toContain('Dinner with the kids');
    expect(text).toContain('for 21 days');
  });

  it('renders an escaped, script-free page that says it came from the offline planner', () => {
    const html = renderPresentation(buildOfflinePlan({ ...answers, firstName: '<img src=x onerror=alert(1)>' }), 'offline', new Date());
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('offline planner');
    expect(escapeHtml(`"a" & 'b'`)).toBe('&quot;a&quot; &amp; &#39;b&#39;');
  });
});
