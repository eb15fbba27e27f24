import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@spark/contracts';
import { insertProgress } from '@spark/testing';
import { createUser, e2eDatabase, openClientHome, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import type { Page } from 'playwright-core';
import { baseUrl, laptopViewport, newPage, phoneViewport, saveScreenshot } from './support/browser';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();
const email = uniqueEmail('every-device');
let userId = '';

beforeAll(async () => {
  userId = await createUser(email, 'client', 'Maya Lopez');
  await insertProgress(db, { userId, email, fullName: 'Maya Lopez', goal: 'Run a half marathon by spring', daysIn: 10 });
});

/**
 * A laptop where `person` signed in days ago: its own session (refresh family) in the database and its cookie in the
 * browser. A second link to the same address right after the first would be refused by the mail cooldown.
 */
async function laptopSignedInEarlier(person: string) {
  const token = randomBytes(32).toString('base64url');
  await db.query(`INSERT INTO auth.refresh_tokens (id, family_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() + interval '20 days')`, [
    randomUUID(),
    randomUUID(),
    person,
    createHash('sha256').update(token).digest(),
  ]);
  const page = await newPage(browser(), { viewport: laptopViewport });
  await page.context().addCookies([{ name: REFRESH_COOKIE_NAME, value: token, url: `${baseUrl()}${REFRESH_COOKIE_PATH}` }]);
  return page;
}

/** The laptop's session is over: /signin offers a new link, not "Welcome back!". */
async function expectSignedOut(page: Page) {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Send Magic Link' }).waitFor();
  expect(await page.getByText('Welcome back!').count()).toBe(0);
}

describe('Sign out on every device', () => {
  it('ends the session on the laptop left signed in, from the phone, and asks first', async () => {
    const laptop = await laptopSignedInEarlier(userId);
    await openClientHome(laptop);
    await laptop.getByTestId('greeting').waitFor();
    const phone = await signedInContext(browser(), email, { viewport: phoneViewport });
    await openClientHome(phone.page);

    const section = phone.page.getByTestId('sign-out-everywhere');
    await section.getByRole('button', { name: 'Sign out on every device' }).click();
    await section.getByText('This signs you out on every phone and computer where you use Spark, this one included.', { exact: false }).waitFor();
    await saveScreenshot(phone.page, 'sign-out-everywhere-phone');
    await section.getByRole('button', { name: 'Cancel' }).click();
    await section.getByRole('button', { name: 'Sign out on every device' }).click();
    // The laptop had turned reminders on: a lost laptop must not go on showing them.
    await db.query(
      `INSERT INTO progress.reminder_settings (user_id, push_subscription, unsubscribe_token, next_due_at) VALUES ($1, $2, $3, now() + interval '1 day')
       ON CONFLICT (user_id) DO UPDATE SET push_subscription = EXCLUDED.push_subscription`,
      [userId, { endpoint: 'https://fcm.googleapis.com/fcm/send/lost-laptop', keys: { p256dh: 'key', auth: 'auth' } }, randomUUID()],
    );
    await section.getByRole('button', { name: 'Sign out everywhere' }).click();
    await phone.page.waitForURL((url) => url.pathname === '/');
    const { rows } = await db.query(`SELECT push_subscription FROM progress.reminder_settings WHERE user_id = $1`, [userId]);
    expect(rows).toEqual([{ push_subscription: null }]);

    await expectSignedOut(laptop);
    await laptop.context().close();
    await phone.context.close();
  });

  it('stays signed in and says why when the server cannot be reached', async () => {
    const page = await laptopSignedInEarlier(userId);
    await openClientHome(page);
    await page.route('**/api/auth/sign-out-everywhere', (route) => route.abort('internetdisconnected'));
    const section = page.getByTestId('sign-out-everywhere');
    await section.getByRole('button', { name: 'Sign out on every device' }).click();
    await section.getByRole('button', { name: 'Sign out everywhere' }).click();
    await section.getByRole('alert').filter({ hasText: 'Could not reach Spark. Please try again when you are online.' }).waitFor();
    await saveScreenshot(page, 'sign-out-everywhere-failed-laptop');
    expect(new URL(page.url()).pathname).toBe('/app');
    await page.context().close();
  });

  it("is beside the coach dashboard's Sign Out, and asks in a dialog", async () => {
    const coachEmail = uniqueEmail('every-device-coach');
    const coachId = await createUser(coachEmail, 'coach', 'Cora Coach');
    const laptop = await laptopSignedInEarlier(coachId);
    const phone = await signedInContext(browser(), coachEmail, { viewport: phoneViewport });
    await phone.page.goto('/coach');
    await phone.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = phone.page.getByRole('dialog', { name: 'Sign out on every device?' });
    await dialog.getByText('This signs you out on every phone and computer where you use Spark, this one included.', { exact: false }).waitFor();
    await saveScreenshot(phone.page, 'sign-out-everywhere-coach-phone');
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await phone.page.waitForURL((url) => url.pathname === '/');

    await expectSignedOut(laptop);
    await laptop.context().close();
    await phone.context.close();
  });
});
