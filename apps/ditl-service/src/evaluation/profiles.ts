import type { OnboardingAnswersInput } from '@spark/contracts';

/** What a coach reading the answers would say the day is; the schedule reader is held to it. */
export interface ExpectedDay {
  hoursKnown: boolean;
  /** "HH:MM", 24-hour. */
  wake?: string;
  sleep?: string;
  work?: [string, string];
  workPattern?: string;
  challenge?: string;
  daysOff?: boolean;
}

export interface EvaluationProfile {
  id: string;
  label: string;
  answers: OnboardingAnswersInput;
  expected: ExpectedDay;
}

/**
 * Contrasting clients the DITL planners are evaluated on: every plan for each of them must pass
 * every property check (plan-checks.ts), and the table in docs/ditl.md shows the outcome.
 */
export const evaluationProfiles: EvaluationProfile[] = [
  {
    id: 'night-nurse',
    label: 'Night-shift ICU nurse',
    answers: {
      firstName: 'Dana',
      transformationGoal: 'Stop relying on sugar to get through my shifts',
      goalTags: ['Nutrition', 'Energy', 'Sleep'],
      age: 38,
      activityLevel: 'lightly_active',
      gender: 'female',
      occupation: 'ICU nurse on nights',
      familyStatus: 'partnered',
      typicalDay: 'I sleep from 9 AM to 3 PM, work 7 PM to 7 AM three nights a week.',
      biggestChallenge: 'Vending-machine snacks at 3 AM on shift',
      currentWin: 'I drink plenty of water at work',
      timeZone: 'America/Chicago',
    },
    expected: { hoursKnown: true, wake: '15:00', sleep: '09:00', work: ['19:00', '07:00'], workPattern: 'night-shift', challenge: '03:00', daysOff: true },
  },
  {
    id: 'rotating-shifts',
    label: 'Rotating shifts at a plant',
    answers: {
      firstName: 'Marcus',
      transformationGoal: 'Lose 10 kg and keep it off',
      goalTags: ['Weight Loss', 'Fitness'],
      age: 45,
      activityLevel: 'moderately_active',
      gender: 'male',
      occupation: 'Machine operator, rotating shifts',
      familyStatus: 'parent',
      typicalDay:
        'Rotating shifts at the plant: early weeks 6 AM to 2 PM, late weeks 2 PM to 10 PM. On early weeks I am up at 4:45 and in bed by 9:30. Two days off after each block.',
      biggestChallenge: 'Fast food on the drive home after my shift',
      timeZone: 'America/Detroit',
    },
    expected: { hoursKnown: true, wake: '04:45', sleep: '21:30', work: ['06:00', '14:00'], workPattern: 'rotating-shifts', challenge: '14:30', daysOff: true },
  },
  {
    id: 'early-runner',
    label: 'Early runner, office job',
    answers: {
      firstName: 'Tom',
      transformationGoal: 'Run a sub-3:30 marathon this autumn',
      goalTags: ['Fitness', 'Nutrition', 'Sleep'],
      age: 31,
      activityLevel: 'very_active',
      gender: 'male',
      occupation: 'Accountant',
      familyStatus: 'single',
      typicalDay: 'Up at 5:30 for a run, shower, at my desk by 8, lunch at 12:30, done at 5, swim on Tuesdays at 6:30, in bed by 10.',
      biggestChallenge: 'Skipping breakfast, then crashing mid-morning',
      currentWin: 'I have not missed a long run in six weeks',
      timeZone: 'Europe/London',
    },
    expected: { hoursKnown: true, wake: '05:30', sleep: '22:00', work: ['08:00', '17:00'], workPattern: 'day', challenge: '10:30' },
  },
  {
    id: 'toddler-parent',
    label: 'Parent of toddler twins',
    answers: {
      firstName: 'Priya',
      transformationGoal: 'Get my energy back after two years of broken sleep',
      goalTags: ['Energy', 'Weight Loss'],
      age: 34,
      activityLevel: 'sedentary',
      gender: 'female',
      occupation: 'Part-time bank teller',
      familyStatus: 'parent',
      typicalDay:
        'The twins wake us at 6. Daycare drop-off at 8, part-time at the bank 9 to 2, pick-up at 3, dinner at 5:30, bath and bed for them at 7, then I collapse on the couch until 11.',
      biggestChallenge: "Eating the kids' leftovers and snacking on the couch at night",
      timeZone: 'Europe/London',
    },
    expected: { hoursKnown: true, wake: '06:00', sleep: '23:15', work: ['09:00', '14:00'], workPattern: 'day', challenge: '21:45' },
  },
  {
    id: 'student',
    label: 'University student',
    answers: {
      firstName: 'Leo',
      transformationGoal: 'Build a steady routine before exams',
      goalTags: ['Productivity', 'Sleep'],
      age: 20,
      activityLevel: 'lightly_active',
      occupation: 'Computer science student',
      familyStatus: 'single',
      typicalDay: 'Lectures 10-12, library until 6pm, gym some days, gaming at night, asleep around 2am, up at 9:30.',
      biggestChallenge: 'Energy drinks in the afternoon to stay awake in the library',
      timeZone: 'Europe/Berlin',
    },
    expected: { hoursKnown: true, wake: '09:30', sleep: '02:00', work: ['10:00', '18:00'], workPattern: 'day', challenge: '15:00' },
  },
  {
    id: 'retiree',
    label: 'Retired teacher, 68',
    answers: {
      firstName: 'Margaret',
      transformationGoal: 'Stay strong enough to travel and lift my grandchildren',
      goalTags: ['Strength', 'Energy'],
      age: 68,
      activityLevel: 'lightly_active',
      gender: 'female',
      occupation: 'Retired teacher',
      familyStatus: 'partnered',
      typicalDay:
        'Wake at 7 without an alarm, coffee and the newspaper, walk the dog at 9, lunch at noon, nap at 2, garden in the afternoon, dinner at 6, TV until 10:30.',
      biggestChallenge: 'Feeling stiff in the mornings and losing strength',
      currentWin: 'I walk the dog every day, rain or shine',
      timeZone: 'America/New_York',
    },
    expected: { hoursKnown: true, wake: '07:00', sleep: '22:45', workPattern: 'none', challenge: '08:00' },
  },
  {
    id: 'caregiver',
    label: 'Caregiver for a parent with dementia',
    answers: {
      firstName: 'Aisha',
      transformationGoal: 'Look after myself as well as I look after my mum',
      goalTags: ['Stress', 'Nutrition'],
      age: 52,
      activityLevel: 'sedentary',
      gender: 'female',
      occupation: 'Office administrator (from home)',
      familyStatus: 'caregiver',
      typicalDay:
        "I care for my mum, who has dementia. Up at 6:30 to get her breakfast and meds, her carer comes 10 to 1 while I do my admin job from home, afternoons are appointments, she's in bed by 8, then I finally have time for myself until 11.",
      biggestChallenge: 'No time for myself, so I eat whatever is quickest standing up',
      timeZone: 'Europe/London',
    },
    expected: { hoursKnown: true, wake: '06:30', sleep: '23:15', work: ['10:00', '13:00'], workPattern: 'day' },
  },
  {
    id: 'remote-slump',
    label: 'Remote engineer with an afternoon slump',
    answers: {
      firstName: 'Sam',
      transformationGoal: 'Have steady energy all day without the 3 PM crash',
      goalTags: ['Energy', 'Productivity', 'Nutrition'],
      age: 29,
      activityLevel: 'sedentary',
      gender: 'non_binary',
      occupation: 'Software engineer working remotely',
      familyStatus: 'partnered',
      typicalDay:
        'Work from home: laptop open at 8:30, back-to-back calls until lunch at 1, slump around 3pm, log off at 6, dinner with my partner at 7, Netflix until midnight.',
      biggestChallenge: 'The 3 PM slump and the sugar cravings that come with it',
      timeZone: 'America/Los_Angeles',
    },
    expected: { hoursKnown: true, sleep: '00:15', work: ['08:30', '18:00'], workPattern: 'day', challenge: '15:00' },
  },
  {
    id: 'traveller',
    label: 'Consultant who travels every week',
    answers: {
      firstName: 'Elena',
      transformationGoal: 'Keep fit on the road',
      goalTags: ['Fitness', 'Weight Loss', 'Sleep'],
      age: 41,
      activityLevel: 'moderately_active',
      gender: 'female',
      occupation: 'Management consultant',
      familyStatus: 'single',
      typicalDay:
        'Every week is different. Monday I fly out at 6 AM, client meetings 9 to 6 in a new city, hotel dinners, back home Thursday night. On travel days I am up at 4:30.',
      biggestChallenge: 'Airport food and hotel bars',
      timeZone: 'Europe/Madrid',
    },
    expected: { hoursKnown: true, wake: '04:30', work: ['09:00', '18:00'], workPattern: 'travel', challenge: '06:00' },
  },
  {
    id: 'weekend-worker',
    label: 'Restaurant worker, weekends',
    answers: {
      firstName: 'Jamal',
      transformationGoal: 'Eat better and sleep more regular hours',
      goalTags: ['Nutrition', 'Sleep'],
      age: 26,
      activityLevel: 'very_active',
      gender: 'male',
      occupation: 'Line cook',
      familyStatus: 'single',
      typicalDay: 'I work in a restaurant Friday to Sunday, 11 AM to 11 PM. Monday to Thursday are my days off: I sleep until 10 and see friends.',
      biggestChallenge: 'Late meals after closing',
      timeZone: 'America/Chicago',
    },
    expected: { hoursKnown: true, work: ['11:00', '23:00'], workPattern: 'weekend-work', challenge: '23:30', daysOff: true },
  },
  {
    id: 'minimal',
    label: 'Minimal answers',
    answers: {
      firstName: 'Kim',
      transformationGoal: 'Feel better',
      age: 40,
      activityLevel: 'moderately_active',
      typicalDay: 'Busy',
      biggestChallenge: 'Motivation',
    },
    expected: { hoursKnown: false },
  },
  {
    id: 'spanish',
    label: 'Spanish answers, accented name',
    answers: {
      firstName: 'José Ángel',
      lastName: 'Muñoz',
      transformationGoal: 'Bajar 8 kilos antes del verano',
      goalTags: ['Weight Loss'],
      age: 47,
      activityLevel: 'lightly_active',
      gender: 'male',
      occupation: 'Profesor',
      familyStatus: 'parent',
      typicalDay: 'Me levanto a las 6:30, trabajo de 8 a 15 en el colegio, recojo a mis hijos a las 16, cenamos a las 21 y me acuesto a las 23:30.',
      biggestChallenge: 'Picar entre horas por la tarde',
      currentWin: 'Camino al trabajo',
      timeZone: 'Europe/Madrid',
    },
    expected: { hoursKnown: true, wake: '06:30', sleep: '23:30', work: ['08:00', '15:00'], workPattern: 'day', challenge: '15:00' },
  },
  {
    id: 'non-latin-name',
    label: 'Name outside Latin script, sparse hours',
    answers: {
      firstName: '美咲',
      transformationGoal: 'Less stress, more calm evenings',
      goalTags: ['Stress', 'Sleep'],
      age: 33,
      activityLevel: 'lightly_active',
      occupation: 'Graphic designer',
      familyStatus: 'other',
      typicalDay: 'Deadlines all day, I usually work until 7 and then scroll on my phone in bed.',
      biggestChallenge: 'Scrolling in bed until late',
      timeZone: 'Asia/Tokyo',
    },
    expected: { hoursKnown: true, work: ['11:00', '19:00'], workPattern: 'day' },
  },
];

export function evaluationProfile(id: string): EvaluationProfile {
  const profile = evaluationProfiles.find((candidate) => candidate.id === id);
  if (!profile) throw new Error(`No evaluation profile ${id}`);
  return profile;
}
