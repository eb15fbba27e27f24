import { emptyDraft } from './onboarding-draft';
import { firstIncompleteStep, toAnswers, validateStep } from './onboarding-steps';

const complete = {
  ...emptyDraft,
  firstName: 'Maya',
  transformationGoal: 'Sleep better',
  age: '34',
  activityLevel: 'sedentary' as const,
  typicalDay: 'Office job',
  biggestChallenge: 'Late screens',
};

describe('onboarding step rules', () => {
  it('needs a first name on step 1 and a goal on step 2', () => {
    expect(validateStep(0, emptyDraft)).toEqual({ firstName: 'Please tell us your first name' });
    expect(validateStep(1, { ...emptyDraft, transformationGoal: '   ' })).toHaveProperty('transformationGoal');
  });

  it('needs an age from 18 to 100 and an activity level on step 3', () => {
    expect(validateStep(2, { ...complete, age: '17' })).toHaveProperty('age');
    expect(validateStep(2, { ...complete, age: '101' })).toHaveProperty('age');
    expect(validateStep(2, { ...complete, activityLevel: '' })).toHaveProperty('activityLevel');
    expect(validateStep(2, complete)).toEqual({});
  });

  it('needs the typical day and the biggest challenge on step 4', () => {
    expect(Object.keys(validateStep(3, { ...complete, typicalDay: '', biggestChallenge: '' }))).toEqual(['typicalDay', 'biggestChallenge']);
  });

  it('finds the first incomplete step, or -1 when all are done', () => {
    expect(firstIncompleteStep({ ...complete, age: '' })).toBe(2);
    expect(firstIncompleteStep(complete)).toBe(-1);
  });

  it('leaves optional blanks out of the answers', () => {
    const answers = toAnswers(complete);
    expect(answers).toMatchObject({ firstName: 'Maya', age: 34, goalTags: [] });
    expect(answers.occupation).toBeUndefined();
  });
});
