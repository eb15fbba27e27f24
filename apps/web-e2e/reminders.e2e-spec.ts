import { insertProgress } from '@spark/testing';
import { createUser, e2eDatabase, openClientHome, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { baseUrl, phoneViewport, saveScreenshot } from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();
const client = { email: uniqueEmail('reminder-client'), userId: '' };

beforeAll(async () => {
  client.userId = await createUser(client.email, 'client', 'Lena Park');
  await insertProgress(db, {
    userId: client.userId,
    email: client.email,
    fullName: 'Lena Park',
    goal: 'Write every morning',
    timeZone: 'Europe/Stockholm',
    daysIn: 5,
  });
});

describe('Daily reminder', () => {
  it('is set on the client home, arrives by e-mail on a day without a spark, and turns off from the e-mail', async () => {
    const { context, page } = await signedInContext(browser(), client.email, { viewport: phoneViewport });
    await openClientHome(page);

    const card = page.getByTestId('reminders');
    await card.getByText('A nudge at the time you choose, only on days you have not captured a spark yet.').waitFor();
    await card.getByLabel('Remind me on days without a spark').check();
    await card.getByLabel('At').fill('19:30');
    await card.getByLabel('Quiet hours').check();
    await card.getByLabel('From').fill('19:00');
    await card.getByText('Your reminder time falls in your quiet hours').waitFor();
    await card.getByLabel('From').fill('22:00');
    await card.getByLabel('Until').fill('07:00');
    await card.getByRole('button', { name: 'Save reminder' }).click();
    await card.getByText('Saved: 19:30, only if you have not captured a spark by then.').waitFor();
    await expect(card.getByTestId('reminder-channel').textContent()).resolves.toContain('Reminders come by e-mail.');
    await saveScreenshot(page, 'reminders-client-home-phone');

    // 19:30 in Stockholm has come (for the test, now): the next tick sends the reminder.
    await db.query(`UPDATE progress.reminder_settings SET next_due_at = now() - interval '1 second', quiet_start = NULL, quiet_end = NULL WHERE user_id = $1`, [
      client.userId,
    ]);
    const reminder = await waitForEmail((email) => sentTo(client.email)(email) && email.subject === 'A spark for today?', 60_000);
    const text = reminder.text ?? '';
    const captureLink = /Capture a spark: (\S+)/.exec(text)?.[1];
    const offLink = /Turn off these reminders: (\S+)/.exec(text)?.[1];
    expect(captureLink).toBe(`${baseUrl()}/app?capture=1`);

    await page.goto(captureLink ?? '');
    await page.getByRole('dialog', { name: 'Capture Your Spark' }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto(offLink ?? '');
    await page.getByRole('heading', { name: 'Turn off daily reminders?' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('button', { name: 'Turn off reminders' }).click();
    await page.getByRole('heading', { name: 'Reminders are off' }).waitFor();
    await saveScreenshot(page, 'reminders-off-phone');
    await page.goto('/app');
    await expect(page.getByTestId('reminders').getByLabel('Remind me on days without a spark').isChecked()).resolves.toBe(false);
    await context.close();
  });

  it("opens only Spark's own pages from a tapped reminder, whatever address a push names", async () => {
    const email = uniqueEmail('reminder-tap');
    const userId = await createUser(email, 'client', 'Lena Park');
    await insertProgress(db, { userId, email, fullName: 'Lena Park', goal: 'Write every morning', timeZone: 'Europe/Stockholm', daysIn: 5 });
    const { context, page } = await signedInContext(browser(), email, { viewport: phoneViewport });
    await openClientHome(page);
    await page.evaluate('navigator.serviceWorker.ready');
    const [worker] = context.serviceWorkers();
    if (!worker) throw new Error('the client app registered no service worker');
    // What the browser does when a notification is tapped, without one on the screen: the worker's own
    // notificationclick listener runs, and the window it asks for is noted instead of opened.
    const opened = await worker.evaluate(async (target: string) => {
      const scope = globalThis as unknown as { clients: Record<string, unknown>; dispatchEvent(event: Event): boolean };
      let asked = '';
      scope.clients.matchAll = async () => [];
      scope.clients.openWindow = async (url: string) => ((asked = url), null);
      let done: Promise<unknown> = Promise.resolve();
      const tap = Object.assign(new Event('notificationclick'), {
        notification: { close: () => undefined, data: { url: target } },
        waitUntil: (work: Promise<unknown>) => (done = work),
      });
      scope.dispatchEvent(tap);
      await done;
      return asked;
    }, 'https://evil.example/claim-your-prize');
    expect(opened).toBe(`${baseUrl()}/app`);
    await context.close();
  });
});
