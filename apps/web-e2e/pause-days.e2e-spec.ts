import { createUser, e2eDatabase, openClientHome, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { laptopViewport, phoneViewport, saveScreenshot, shownInPagedList, waitUntilTrue } from './support/browser';

jest.setTimeout(120_000);

const zone = 'America/New_York';
const browser = useBrowser();
const db = e2eDatabase();
const client = { email: uniqueEmail('pause-client'), userId: '' };
const coachEmail = uniqueEmail('pause-coach');
let restWeekdayName = '';

beforeAll(async () => {
  client.userId = await createUser(client.email, 'client', 'Maya Lopez');
  // Maya: a 4-day streak up to two days ago (her local calendar), then a pause day she took yesterday; her coach
  // allows 3 pause days every 14 days.
  const seeded = await db.query(
    `WITH local AS (SELECT (now() AT TIME ZONE $3)::date AS today)
     INSERT INTO progress.user_progress (user_id, email, full_name, transformation_goal, evolution_start_date, evolution_end_date, last_spark_date, spark_count, streak_count, time_zone, pause_days_allowance)
     SELECT $1, $2, 'Maya Lopez', 'Run a half marathon by spring', today - 10, today + 80, today - 2, 4, 4, $3, 3 FROM local
     RETURNING to_char(last_spark_date + 6, 'FMDay') AS rest_day`,
    [client.userId, client.email, zone],
  );
  await db.query(`INSERT INTO progress.pause_days (user_id, pause_date) VALUES ($1, (now() AT TIME ZONE $2)::date - 1)`, [client.userId, zone]);
  restWeekdayName = seeded.rows[0].rest_day;
  await createUser(coachEmail, 'coach', 'Alex Coach');
});

describe('rest and pause days', () => {
  it('lets the client choose a rest day and take a pause day on the home screen, and the coach sees it', async () => {
    const { context, page } = await signedInContext(browser(), client.email, { viewport: phoneViewport, timezoneId: zone });
    await openClientHome(page);
    const card = page.getByTestId('rest-days');
    await card.getByText('Rest and recovery').waitFor();
    await expect(card.getByTestId('pause-days-left').textContent()).resolves.toBe('2 pause days left');
    // Yesterday's pause day kept the streak alive.
    await expect(page.getByTestId('streak').textContent()).resolves.toBe('4');
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/progress/me/rest-day') && response.status() === 200);
    await card.getByLabel('Weekly rest day').selectOption({ label: restWeekdayName });
    await saved;
    await page.reload();
    await card.getByText('Rest and recovery').waitFor();
    // The home may first show the snapshot saved on the device, then the server's answer.
    await waitUntilTrue(page, `document.querySelector('#rest-weekday option:checked')?.textContent === ${JSON.stringify(restWeekdayName)}`);

    await card.getByRole('button', { name: 'Take a pause day' }).click();
    await card.getByRole('button', { name: 'Pause this day' }).click();
    await card.getByText('Pause day today: your streak is safe.').waitFor();
    await expect(card.getByTestId('pause-days-left').textContent()).resolves.toBe('1 pause day left');
    await expect(card.getByTestId('pause-days').getByText('Today', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(
      card
        .getByTestId('pause-days')
        .getByText(/· taken$/)
        .count(),
    ).resolves.toBe(1);
    await expect(page.getByTestId('streak').textContent()).resolves.toBe('4');
    await saveScreenshot(page, 'pause-days-client-home-phone');

    // The next pause day in this window is the last one; after it, the button says there are none left.
    await card.getByRole('button', { name: 'Take a pause day' }).click();
    await card
      .getByLabel('Pause on')
      .fill((await page.evaluate(`new Date(Date.now() + 2 * 864e5).toLocaleDateString('en-CA', { timeZone: '${zone}' })`)) as string);
    await card.getByRole('button', { name: 'Pause this day' }).click();
    await card.getByTestId('pause-days-left').filter({ hasText: '0 pause days left' }).waitFor();
    await expect(card.getByRole('button', { name: 'Take a pause day' }).isDisabled()).resolves.toBe(true);
    await card.getByText(/^Your next pause days start on \w+day, \w+ \d+\.$/).waitFor();
    await page.setViewportSize(laptopViewport);
    await saveScreenshot(page, 'pause-days-client-home-laptop');
    // Offline, the card still shows the saved rest and pause days; changing them waits for the network.
    await context.setOffline(true);
    await card.getByText('You can plan rest and pause days when you are back online.').waitFor();
    await expect(card.getByLabel('Weekly rest day').isDisabled()).resolves.toBe(true);
    await expect(card.getByText('Pause day today: your streak is safe.').isVisible()).resolves.toBe(true);
    await context.close();

    const coach = await signedInContext(browser(), coachEmail, { viewport: laptopViewport, timezoneId: zone });
    await coach.page.goto('/coach');
    await coach.page.getByRole('tab', { name: /^Clients/ }).click();
    await coach.page.getByLabel('Sort clients').selectOption('attention');
    const row = await shownInPagedList(coach.page, coach.page.getByTestId('client-row').filter({ hasText: client.email }));
    await expect(row.getByTestId('resting-today').textContent()).resolves.toBe('Paused today');
    await expect(row.getByRole('button', { name: 'Draft a nudge' }).count()).resolves.toBe(0);
    await saveScreenshot(coach.page, 'pause-days-coach-list-laptop');
    await row.getByRole('button', { name: 'Manage Client' }).click();
    const dialog = coach.page.getByRole('dialog');
    await dialog.getByText('Paused today: not counted as a missed day.').waitFor();
    await dialog.getByRole('tab', { name: 'Rest Days' }).click();
    const restDays = dialog.getByTestId('client-rest-days');
    await restDays.getByText(restWeekdayName, { exact: true }).waitFor();
    await expect(restDays.getByTestId('client-pause-days').getByText('Today').isVisible()).resolves.toBe(true);
    await restDays.getByText('0 of 3').waitFor();
    await restDays.getByLabel('Pause days allowed every 14 days').fill('15');
    await restDays.getByRole('button', { name: 'Save pause days' }).click();
    await restDays.getByRole('alert').filter({ hasText: 'Between 0 and 14 days' }).waitFor();
    await restDays.getByLabel('Pause days allowed every 14 days').fill('4');
    await restDays.getByRole('button', { name: 'Save pause days' }).click();
    await restDays.getByText('1 of 4').waitFor();
    await saveScreenshot(coach.page, 'pause-days-coach-manage-laptop');
    await coach.page.setViewportSize(phoneViewport);
    await saveScreenshot(coach.page, 'pause-days-coach-manage-phone');
    const audited = await db.query(`SELECT details FROM auth.audit_events WHERE action = 'client.pause-allowance' AND target_id = $1`, [client.userId]);
    expect(audited.rows).toEqual([{ details: { pauseDaysAllowance: 4 } }]);
    await coach.context.close();
  });
});
