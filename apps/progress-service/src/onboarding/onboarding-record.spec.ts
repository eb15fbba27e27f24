import { onboardingAnswers } from '@spark/testing';
import { firstEvolution, toOnboardingRecord } from './onboarding-record';

const userId = '5b8f4c1e-8d7a-4c43-9a55-2f1b0f3c9d11';
const minimal = onboardingAnswers({ firstName: 'Maya', age: 34, activityLevel: 'lightly_active', biggestChallenge: 'Stress after work' });

describe('toOnboardingRecord', () => {
  it('fills every optional field with the spec defaults', () => {
    const record = toOnboardingRecord(userId, minimal, new Date('2026-01-05T10:00:00Z'), 90);
    expect(record.demographics).toEqual({
      age: 34,
      gender: 'Not specified',
      activity_level: 'lightly_active',
      occupation: 'Not specified',
      family_status: 'Not specified',
    });
    expect(record.habits).toEqual({
      current_habits: 'Not specified',
      habit_preferences: 'Not specified',
      tracking_preference: 'photos',
      accountability_preference: 'coach_support',
    });
    expect(record.goal_tags).toEqual([]);
    expect(record.goalQuestions.timeline).toBe('90 days');
  });

  it("states the client's evolution length as its timeline", () => {
    expect(toOnboardingRecord(userId, minimal, new Date(), 60).goalQuestions.timeline).toBe('60 days');
  });

  it('reads a challenge that names stress as a high stress level', () => {
    expect(toOnboardingRecord(userId, minimal, new Date(), 90).lifestyle.stress_level).toBe('high');
    const calm = { ...minimal, biggestChallenge: 'Finding time' };
    expect(toOnboardingRecord(userId, calm, new Date(), 90).lifestyle.stress_level).toBe('moderate');
  });

  it('joins first and last name into the full name', () => {
    expect(toOnboardingRecord(userId, { ...minimal, lastName: 'Lopez' }, new Date(), 90).full_name).toBe('Maya Lopez');
  });
});

describe('firstEvolution', () => {
  it('ends 90 days after today by default', () => {
    expect(firstEvolution('2026-01-01', undefined)).toEqual({ startDate: '2026-01-01', endDate: '2026-04-01' });
  });

  it('ends after the custom number of days when given', () => {
    expect(firstEvolution('2026-01-01', 21)).toEqual({ startDate: '2026-01-01', endDate: '2026-01-22' });
  });
});
