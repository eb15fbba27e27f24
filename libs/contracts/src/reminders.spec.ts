import { inQuietHours, updateReminderSettingsBodySchema } from './reminders';

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
