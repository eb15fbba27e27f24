import { foldCaptures } from './trends';

describe('foldCaptures', () => {
  it('charts every day of the cycle so far, with zero for days without sparks', () => {
    const trends = foldCaptures([{ day: '2025-03-02', hour: 8, count: 2 }], '2025-03-01', '2025-03-03');
    expect(trends.sparksPerDay).toEqual([
      { date: '2025-03-01', count: 0 },
      { date: '2025-03-02', count: 2 },
      { date: '2025-03-03', count: 0 },
    ]);
  });

  it('counts captures by part of the day and by weekday, Sunday first', () => {
    const trends = foldCaptures(
      [
        { day: '2025-03-02', hour: 8, count: 1 },
        { day: '2025-03-02', hour: 23, count: 1 },
        { day: '2025-03-03', hour: 18, count: 3 },
      ],
      '2025-03-01',
      '2025-03-03',
    );
    expect(trends.timeOfDay).toEqual({ morning: 1, afternoon: 0, evening: 3, night: 1 });
    expect(trends.weekdays).toEqual([2, 3, 0, 0, 0, 0, 0]);
  });
});
