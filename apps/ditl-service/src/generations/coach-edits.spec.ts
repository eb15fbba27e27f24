import type { DitlPlan } from '@spark/contracts';
import { applyCoachEdits, type CoachEdit, editedSlides, momentKeys } from './coach-edits';

const slide = (moment: DitlPlan['slides'][number]['moment'], time: string): DitlPlan['slides'][number] => ({
  moment,
  time,
  title: `${moment} at ${time}`,
  narrative: `Planned ${moment}.`,
  habit: `Habit for ${moment}.`,
  sparkToCapture: 'A photo.',
});
const planOf = (...slides: DitlPlan['slides']): DitlPlan => ({
  title: "Sam's Day in the Life",
  subtitle: 'One ordinary day.',
  slides,
  weeklyRhythm: { sundayAlignment: 'Plan.', fridayCheckIn: 'Review.', rest: 'Rest.' },
  closing: 'One day.',
});
const edit = (moment: string, narrative: string, habit: string): CoachEdit => ({ moment, narrative, habit, updatedAt: new Date('2026-11-20T10:00:00Z') });

describe('coach edits of a Day in the Life', () => {
  it('names each moment by its kind, numbering later slides of the same kind', () => {
    expect(momentKeys(planOf(slide('wake', '6:00 AM'), slide('evening', '6:00 PM'), slide('evening', '8:00 PM'), slide('windDown', '10:15 PM')))).toEqual([
      'wake',
      'evening',
      'evening-2',
      'windDown',
    ]);
  });

  it('follows its moment when the next plan reorders the slides, and changes only text and habit', () => {
    const first = planOf(slide('wake', '6:00 AM'), slide('challenge', '3:00 PM'), slide('windDown', '10:15 PM'), slide('work', '9:00 AM'));
    const regenerated = planOf(slide('wake', '6:30 AM'), slide('work', '8:30 AM'), slide('challenge', '2:30 PM'), slide('windDown', '10:00 PM'));
    const edits = [edit('challenge', 'You step outside before the slump.', 'A five-minute walk at 2:30.')];
    expect(applyCoachEdits(first, edits).slides[1]).toMatchObject({
      time: '3:00 PM',
      narrative: 'You step outside before the slump.',
      habit: 'A five-minute walk at 2:30.',
    });
    const shown = applyCoachEdits(regenerated, edits);
    expect(shown.slides.map((each) => each.narrative)).toEqual(['Planned wake.', 'Planned work.', 'You step outside before the slump.', 'Planned windDown.']);
    expect(shown.slides[2]).toMatchObject({ time: '2:30 PM', title: 'challenge at 2:30 PM', habit: 'A five-minute walk at 2:30.', sparkToCapture: 'A photo.' });
    expect(shown.title).toBe(regenerated.title);
  });

  it('keeps what the planner wrote beside an edit, and leaves a plan without the edited moment as it was', () => {
    const plan = planOf(slide('wake', '6:00 AM'), slide('evening', '6:00 PM'), slide('evening', '8:00 PM'), slide('windDown', '10:15 PM'));
    const [, first, second] = editedSlides(plan, [
      edit('evening-2', 'Family board games.', 'Phones in the basket at 8.'),
      edit('dayOff', 'Lie in.', 'A long walk.'),
    ]);
    expect(first).toMatchObject({ key: 'evening', edit: undefined, slide: { narrative: 'Planned evening.' } });
    expect(second).toMatchObject({
      key: 'evening-2',
      generated: { narrative: 'Planned evening.', habit: 'Habit for evening.' },
      slide: { narrative: 'Family board games.' },
    });
    expect(applyCoachEdits(plan, [edit('dayOff', 'Lie in.', 'A long walk.')])).toEqual(plan);
  });
});
