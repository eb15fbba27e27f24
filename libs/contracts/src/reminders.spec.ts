import { greetingName, inQuietHours, isTodaySomewhere, updateReminderSettingsBodySchema } from './reminders';

describe('quiet hours', () => {
  it('holds from the start up to (not including) the end, across midnight when the start is later', () => {
    const night = { start: '22:00', end: '07:00' };
    expect(['22:00', '23:59', '00:00', '06:59'].map((time) => inQuietHours(time, night))).toEqual([true, true, true, true]);
    expect(['07:00', '12:00', '21:59'].map((time) => inQuietHours(time, night))).toEqual([false, false, false]);
    const lunch = { start: '12:00', end: '13:30' };
    expect(['11:59', '12:00', '13:29', '13:30'].map((time) => inQuietHours(time, lunch))).toEqual([false, true, true, false]);
    expect(inQuietHours('03:00', null)).toBe(false);
  });

  it('refuses a reminder time inside the quiet hours, naming the field', () => {
    const refused = updateReminderSettingsBodySchema.safeParse({ enabled: true, localTime: '23:00', quietHours: { start: '22:00', end: '07:00' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([expect.objectContaining({ path: ['localTime'], message: 'Your reminder time falls in your quiet hours' })]);
    expect(updateReminderSettingsBodySchema.safeParse({ enabled: true, localTime: '20:00', quietHours: { start: '22:00', end: '07:00' } }).success).toBe(true);
    expect(updateReminderSettingsBodySchema.safeParse({ enabled: true, localTime: '24:00', quietHours: null }).success).toBe(false);
  });
});

describe('what a reminder may say', () => {
  it('greets by the first word of a name, and by no name when that word is not one', () => {
    expect(['Maya Stone', '  Zoë  ', 'Mary-Jane Watson', "O'Brien", 'J. R. Smith', '李 小龙'].map(greetingName)).toEqual([
      'Maya',
      'Zoë',
      'Mary-Jane',
      "O'Brien",
      'J.',
      '李',
    ]);
    expect(['http://evil.example', 'Call-0800-555-555', '🌟Anna', '', '   ', 'a'.repeat(41)].map(greetingName)).toEqual([null, null, null, null, null, null]);
    expect(greetingName(null)).toBeNull();
  });

  it('is of a date that is today in some time zone, from 12 hours behind UTC to 14 ahead', () => {
    const lateInUtc = new Date('2026-11-30T23:30:00Z');
    expect(['2026-11-30', '2026-12-01'].map((date) => isTodaySomewhere(date, lateInUtc))).toEqual([true, true]);
    expect(['2026-11-29', '2026-12-02', '2020-01-01'].map((date) => isTodaySomewhere(date, lateInUtc))).toEqual([false, false, false]);
    const earlyInUtc = new Date('2026-11-30T08:00:00Z');
    expect(['2026-11-29', '2026-11-30', '2026-12-01'].map((date) => isTodaySomewhere(date, earlyInUtc))).toEqual([true, true, false]);
  });
});
