import { randomBytes, randomUUID } from 'node:crypto';
import { openMigrated } from '@spark/persistence';
import { insertProgress, useMigratedDatabase } from '@spark/testing';
import { progressMigrations } from '../migrations';
import { RemindersRepository } from './reminders.repository';

/** The claim straight against PostgreSQL, for what the whole-product reminder tests cannot set up: stored zones and late ticks. */
describe('claiming due reminders (real PostgreSQL)', () => {
  const { dataSource } = useMigratedDatabase((url) => openMigrated({ url, schema: 'progress', migrations: progressMigrations }));
  let reminders: RemindersRepository;
  beforeAll(() => {
    reminders = new RemindersRepository(dataSource());
  });
  // Each test claims only its own clients.
  beforeEach(() => dataSource().query(`DELETE FROM progress.reminder_settings`));

  /** A client with reminders on, due a second ago and not claimed since. */
  async function clientDue(timeZone: string): Promise<string> {
    const userId = randomUUID();
    await insertProgress(dataSource(), { userId, email: `reminded-${userId}@spark.test`, fullName: 'Sam', timeZone, daysIn: 3 });
    await dataSource().query(
      `INSERT INTO progress.reminder_settings (user_id, enabled, unsubscribe_token, next_due_at) VALUES ($1, true, $2, now() - interval '1 second')`,
      [userId, randomBytes(24).toString('base64url')],
    );
    return userId;
  }
  const claim = () => dataSource().transaction(() => reminders.claimDue(100));
  /** Today's date in a zone, and the instant its wall clock next shows midnight (found in two steps, for its offset then). */
  const dayEndIn = (timeZone: string) => {
    const wallClock = (at: number) => {
      const part = Object.fromEntries(
        new Intl.DateTimeFormat('en-CA', {
          timeZone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        })
          .formatToParts(at)
          .map(({ type, value }) => [type, Number(value)]),
      );
      return {
        date: Date.UTC(part.year!, part.month! - 1, part.day!),
        at: Date.UTC(part.year!, part.month! - 1, part.day!, part.hour, part.minute, part.second),
      };
    };
    const today = wallClock(Date.now()).date;
    const midnight = today + 86_400_000;
    const guess = midnight - (wallClock(midnight).at - midnight);
    return { localDate: new Date(today).toISOString().slice(0, 10), dayEndsAt: new Date(midnight - (wallClock(guess).at - guess)) };
  };
  const nextDue = async (userId: string) =>
    ((await dataSource().query(`SELECT next_due_at > now() AS later FROM progress.reminder_settings WHERE user_id = $1`, [userId])) as { later: boolean }[])[0];

  it("reminds everyone else, and moves on, when one client's stored zone is one PostgreSQL no longer knows", async () => {
    const known = await clientDue('Europe/Berlin');
    const dropped = await clientDue('US/Pacific-New');

    const claimed = await claim().catch((error: unknown) => String(error));
    const settings = await reminders.update(dropped, { enabled: false, localTime: '20:00', quietHours: null }).catch((error: unknown) => String(error));

    expect({
      claimed: typeof claimed === 'string' ? claimed : { claimed: claimed.claimed, due: claimed.due.map((reminder) => reminder.user_id).sort() },
      movedOn: [await nextDue(known), await nextDue(dropped)],
      settings,
    }).toEqual({
      claimed: { claimed: 2, due: [known, dropped].sort() },
      movedOn: [{ later: true }, { later: true }],
      settings: { enabled: false, localTime: '20:00', quietHours: null, push: false },
    });
  });

  it("dates each reminder to end at the client's next midnight, in their zone (UTC for one PostgreSQL does not know)", async () => {
    const clients = { 'Asia/Kolkata': await clientDue('Asia/Kolkata'), 'America/New_York': await clientDue('America/New_York') };
    const dropped = await clientDue('US/Pacific-New');

    const { due } = await claim();

    const dayEnds = Object.fromEntries(due.map((reminder) => [reminder.user_id, { localDate: reminder.local_date, dayEndsAt: reminder.day_ends_at }]));
    expect(dayEnds).toEqual({
      [clients['Asia/Kolkata']]: dayEndIn('Asia/Kolkata'),
      [clients['America/New_York']]: dayEndIn('America/New_York'),
      [dropped]: dayEndIn('UTC'),
    });
  });

  it("sends nothing for a day that ended before the tick came, and sends the new day's reminder", async () => {
    // A whole-hour zone where it is now between midnight and one: due at 23:00 there, the tick comes after midnight,
    // still within the grace period. That evening is over.
    const offsetHours = ((36 - new Date().getUTCHours()) % 24) - 12;
    const zone = offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
    const userId = randomUUID();
    await insertProgress(dataSource(), { userId, email: `late-${userId}@spark.test`, timeZone: zone, daysIn: 3 });
    await dataSource().query(
      `INSERT INTO progress.reminder_settings (user_id, enabled, local_time, unsubscribe_token, next_due_at)
       VALUES ($1, true, '23:00', $2, (((now() AT TIME ZONE $3)::date - 1) + time '23:00') AT TIME ZONE $3)`,
      [userId, randomBytes(24).toString('base64url'), zone],
    );

    const late = await claim();
    await dataSource().query(`UPDATE progress.reminder_settings SET next_due_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
    const newDay = await claim();

    expect({ late: late.claimed, lateSent: late.due.length, newDaySent: newDay.due.length }).toEqual({ late: 1, lateSent: 0, newDaySent: 1 });
  });
});
