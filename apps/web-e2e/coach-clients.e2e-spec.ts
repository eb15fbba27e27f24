import { randomUUID } from 'node:crypto';
import { captureSpark, eventually } from '@spark/testing';
import type { Page } from 'playwright-core';
import { createUser, e2eDatabase, markOnboarded, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { baseUrl, laptopViewport, paintedPicture, phoneViewport, saveScreenshot, screenSizes, serviceUnavailable, shownInPagedList } from './support/browser';
import { clientRow, createClient, openManageClient, signedIn } from './support/coach-fixtures';

// The clients side of /coach: a client's details, nudges and the Friday check-in.
jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();

describe("a client's details the server could not give", () => {
  it('says a client\'s trends, sparks, private notes and rest days could not be loaded, never that there are none, and loads them on "Try again"', async () => {
    const { email, userId } = await createClient('Stretch before breakfast');
    const { page } = await signedIn(browser(), 'coach', phoneViewport);
    const clientParts = new RegExp(`/api/(coach/clients/${userId}$|progress/clients/${userId}(/(sparks|private-notes)\\?.*)?$)`);
    await page.route(clientParts, (route) => route.fulfill(serviceUnavailable));
    await openManageClient(page, email);
    await page.getByText("The client's trends could not be loaded.").waitFor();
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('The sparks could not be loaded.').waitFor();
    await page.getByText('The private notes could not be loaded.').waitFor();
    expect(await page.getByText('No sparks yet.').count()).toBe(0);
    await saveScreenshot(page, 'coach-client-activity-failed-phone');
    await page.getByRole('tab', { name: 'Rest Days' }).click();
    await page.getByText('The rest days could not be loaded.').waitFor();
    await saveScreenshot(page, 'coach-client-rest-days-failed-phone');
    expect(await page.getByText('Rest days appear once the client has finished onboarding.').count()).toBe(0);

    await page.unroute(clientParts);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('client-rest-days').waitFor();
    // Back on a tab, what failed there is asked for again.
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('No sparks yet.').waitFor();
    await page.getByText('No private notes yet.').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByText('Sparks per day').waitFor();
    await page.context().close();
  });

  it('says a check-in, a nudge draft or a Day in the Life could not be loaded, and loads it on "Try again"', async () => {
    // Three days into the cycle without a spark: slipping, so the row offers a drafted nudge.
    const { email, userId } = await createClient('Walk after lunch');
    await db.query(`UPDATE progress.user_progress SET evolution_start_date = current_date - 3, evolution_end_date = current_date + 87 WHERE user_id = $1`, [
      userId,
    ]);
    const { page } = await signedIn(browser(), 'coach');
    let serviceDown = true;
    await page.route(new RegExp(`/api/coach/clients/${userId}/(weekly-check-in|nudge-draft|ditl)$`), (route) =>
      serviceDown ? route.fulfill(serviceUnavailable) : route.continue(),
    );
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    const row = await shownInPagedList(page, clientRow(page, email));
    const dialog = page.getByRole('dialog');
    const failsThenLoads = async (failure: string, screenshot: string, loaded: () => Promise<void>) => {
      await dialog.getByText(failure).waitFor();
      await saveScreenshot(page, screenshot);
      serviceDown = false;
      await dialog.getByRole('button', { name: 'Try again' }).click();
      await loaded();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      serviceDown = true;
    };

    await row.getByRole('button', { name: 'Friday check-in' }).click();
    await failsThenLoads('The check-in could not be loaded.', 'coach-check-in-failed-laptop', () =>
      dialog.getByRole('region', { name: "This week's sparks" }).waitFor(),
    );
    await row.getByRole('button', { name: 'Draft a nudge' }).click();
    await failsThenLoads('The draft could not be loaded.', 'coach-nudge-draft-failed-laptop', () => dialog.getByLabel('Your message').waitFor());
    await row.getByRole('button', { name: 'Manage Client' }).click();
    await dialog.getByRole('tab', { name: 'Day in the Life' }).click();
    await failsThenLoads('The Day in the Life could not be loaded.', 'coach-client-ditl-failed-laptop', () =>
      dialog.getByText('No Day in the Life yet.', { exact: false }).waitFor(),
    );
    await page.context().close();
  });
});

describe('managing a client', () => {
  it('edits the record and the client list shows the change', async () => {
    const { email } = await createClient('Run a half marathon by spring');
    const { page } = await signedIn(browser(), 'coach');
    await openManageClient(page, email);
    await page.getByRole('tab', { name: 'Edit Record' }).click();
    await page.getByLabel('Transformation goal').fill('Sleep eight hours a night');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Client record updated').waitFor();
    await page.keyboard.press('Escape');
    await clientRow(page, email).getByText('Sleep eight hours a night').waitFor();
    await page.context().close();
  });

  it('sends a pinned nudge that the client sees on their home', async () => {
    const { email } = await createClient('Read every evening');
    const { page } = await signedIn(browser(), 'coach');
    await openManageClient(page, email);
    await page.getByRole('tab', { name: 'Activity' }).click();
    const message = `Proud of your week! ${randomUUID().slice(0, 6)}`;
    await page.getByLabel('Nudge message').fill(message);
    await page.getByRole('button', { name: 'Send Nudge' }).click();
    await page.getByText('Nudge sent').waitFor();
    await page.context().close();

    const { page: clientPage } = await clientSignedIn(email);
    await clientPage.goto('/app');
    await clientPage.getByTestId('coach-note').getByText(message).waitFor();
    await clientPage.context().close();
  });
});
/** A client page signed in through the e-mailed link, past onboarding (the app's local flag set), and its access token. */
async function clientSignedIn(email: string): Promise<{ page: Page; accessToken: string }> {
  const { page, accessToken } = await signedInContext(browser(), email, { viewport: phoneViewport });
  await markOnboarded(page);
  return { page, accessToken };
}

/**
 * A client whose 4-day streak ended: real photo sparks captured through the API, moved back to 5…2 days
 * ago (no spark yesterday), with the goal and challenge they gave at onboarding.
 */
async function createSlippingClient(): Promise<{ email: string; clientPage: Page }> {
  const { email, userId } = await createClient('I want to run a half marathon by June');
  await db.query(`INSERT INTO progress.onboarding_data (user_id, data) VALUES ($1, $2)`, [
    userId,
    JSON.stringify({
      full_name: 'Maya Lopez',
      transformation_goal: 'I want to run a half marathon by June',
      biggest_challenge: 'Too tired after work to lace up',
    }),
  ]);
  const { page: clientPage, accessToken } = await clientSignedIn(email);
  const captions = ['Morning run, 5 km', 'Stretching after work', 'Meal prep Sunday', 'Intervals in the park'];
  for (const caption of captions) {
    const picture = await paintedPicture(clientPage, caption, { width: 480, height: 480 });
    const response = await captureSpark(baseUrl(), { authorization: `Bearer ${accessToken}` }, { bytes: picture, timeZone: 'UTC', note: caption });
    expect(response.status).toBe(201);
  }
  await db.query(
    `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM progress.sparks WHERE user_id = $1)
     UPDATE progress.sparks SET created_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - (6 - numbered.n) * interval '1 day' + interval '12 hours'
     FROM numbered WHERE sparks.id = numbered.id`,
    [userId],
  );
  await db.query(
    `UPDATE progress.user_progress SET time_zone = 'UTC', streak_count = 4, last_spark_date = (now() AT TIME ZONE 'UTC')::date - 2,
       evolution_start_date = (now() AT TIME ZONE 'UTC')::date - 12, evolution_end_date = (now() AT TIME ZONE 'UTC')::date + 78
     WHERE user_id = $1`,
    [userId],
  );
  return { email, clientPage };
}

describe('drafted nudges and the Friday check-in', () => {
  it('tells a coach past the hourly limit on drafts when to try again, without asking the server again by itself', async () => {
    const { email, userId } = await createClient('Sleep eight hours');
    const coachEmail = uniqueEmail('drafts-limit-coach');
    await createUser(coachEmail, 'coach');
    const { page, accessToken } = await signedInContext(browser(), coachEmail, { viewport: laptopViewport });
    const checkInPath = `/api/coach/clients/${userId}/weekly-check-in`;
    // The coach's hour of drafts, spent through the API: the next one is refused.
    for (let draft = 0; draft < 60; draft++) {
      expect((await fetch(`${baseUrl()}${checkInPath}`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
    }
    const asked: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === checkInPath) asked.push(String(response.status()));
    });
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await (await shownInPagedList(page, clientRow(page, email))).getByRole('button', { name: 'Friday check-in' }).click();
    await page
      .getByRole('dialog')
      .getByText(/^Too many requests\. Please try again in .+\.$/)
      .waitFor();
    await saveScreenshot(page, 'coach-check-in-rate-limited-laptop');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(asked).toEqual(['429']);
    await page.context().close();
  });

  it('drafts a nudge for a slipping client that the coach edits and sends as a pinned note, which the client sees', async () => {
    const { email, clientPage } = await createSlippingClient();
    const { page } = await signedIn(browser(), 'coach');
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByLabel('Sort clients').selectOption('attention');
    const row = clientRow(page, email);
    await row.getByText('Streak broken: no spark yesterday').waitFor();
    await row.getByRole('button', { name: 'Draft a nudge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nudge Maya Lopez' });
    const draft = dialog.getByLabel('Your message');
    await waitForValue(draft, /your 4-day streak paused yesterday/);
    const drafted = await draft.inputValue();
    expect(drafted).toMatch(/^Hi Maya, your 4-day streak paused yesterday after your spark on \w+day\./);
    expect(drafted).toContain('“run a half marathon by June”');
    expect(drafted).toContain('“Too tired after work to lace up”');
    await dialog.getByText('4-day streak ended').waitFor();
    await dialog.getByText('Last spark 2 days ago').waitFor();
    await saveScreenshot(page, 'coach-nudge-draft-laptop');
    // Nothing reaches the client until the coach clicks Send as note.
    expect((await db.query(`SELECT 1 FROM progress.coach_notes n JOIN progress.user_progress p USING (user_id) WHERE p.email = $1`, [email])).rowCount).toBe(0);
    const edited = `${drafted} Let's talk on Friday.`;
    await draft.fill(edited);
    expect(await dialog.getByLabel('Pin').isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Send as note' }).click();
    await page.getByText('Note sent').waitFor();
    await page.context().close();

    await clientPage.goto('/app');
    await clientPage.getByTestId('coach-note').getByText("Let's talk on Friday.", { exact: false }).waitFor();
    expect(await clientPage.getByTestId('coach-note').innerText()).toContain('your 4-day streak paused yesterday');
    await clientPage.context().close();
  });

  it("shows the Friday check-in with the week's sparks as thumbnails, what slipped and what went well, on phone and laptop", async () => {
    const { email, clientPage } = await createSlippingClient();
    await clientPage.context().close();
    for (const [label, viewport] of screenSizes) {
      const { page } = await signedIn(browser(), 'coach', viewport);
      await page.goto('/coach');
      await page.getByRole('tab', { name: /^Clients/ }).click();
      await page.getByLabel('Sort clients').selectOption('attention');
      if (label === 'phone') await saveScreenshot(page, 'coach-clients-needs-attention-phone');
      await clientRow(page, email).getByRole('button', { name: 'Friday check-in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Friday check-in: Maya Lopez' });
      const thumbnails = dialog.getByRole('region', { name: "This week's sparks" }).getByRole('img');
      await thumbnails.nth(3).waitFor();
      expect(await thumbnails.count()).toBe(4);
      expect(await thumbnails.first().getAttribute('alt')).toBe('Intervals in the park');
      await waitUntilLoaded(thumbnails.first());
      await dialog.getByText('What slipped', { exact: true }).waitFor();
      await dialog.getByText(/^No spark on \w{3}, \w{3}$/).waitFor();
      await dialog.getByText(/^4 days in a row/).waitFor();
      const summary = await dialog.getByLabel('Check-in summary').inputValue();
      expect(summary).toContain("Hi Maya, here's your week: 4 sparks on 4 days");
      await saveScreenshot(page, `coach-friday-check-in-${label}`);
      if (label === 'phone') {
        await dialog.getByRole('button', { name: 'Close' }).click();
        await clientRow(page, email).getByRole('button', { name: 'Draft a nudge' }).click();
        await waitForValue(page.getByRole('dialog').getByLabel('Your message'), /streak/);
        await saveScreenshot(page, 'coach-nudge-draft-phone');
      }
      await page.context().close();
    }
  });
});

async function waitForValue(field: ReturnType<Page['getByLabel']>, pattern: RegExp): Promise<void> {
  await field.waitFor();
  for (let i = 0; i < 100 && !pattern.test(await field.inputValue()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await field.inputValue()).toMatch(pattern);
}

async function waitUntilLoaded(image: ReturnType<Page['getByRole']>): Promise<void> {
  await eventually(() => image.evaluate((element) => (element as { naturalWidth: number }).naturalWidth > 0), 10_000, 'the image to load');
}
