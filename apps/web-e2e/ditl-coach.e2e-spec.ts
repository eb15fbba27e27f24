import { eventually } from '@spark/testing';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { createUser, e2eDatabase, openClientHome, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { laptopViewport, phoneViewport, saveScreenshot, shownInPagedList, waitUntilTrue } from './support/browser';

jest.setTimeout(120_000);

const coachNarrative = 'At 3:00 AM you walk one lap of the ward first, then eat the snack you packed, sitting down.';
const coachHabit = 'One lap of the ward before any snack.';
// A night-shift nurse (as in ditl-recorded-model.ts, which browser tests cannot import): the offline planner puts her challenge at 3:00 AM on shift.
const answers = {
  firstName: 'Dana',
  transformationGoal: 'Stop relying on sugar to get through my shifts',
  goalTags: ['Nutrition', 'Energy', 'Sleep'],
  age: 38,
  activityLevel: 'lightly_active',
  occupation: 'ICU nurse on nights',
  familyStatus: 'partnered',
  typicalDay: 'I sleep from 9 AM to 3 PM, work 7 PM to 7 AM three nights a week.',
  biggestChallenge: 'Vending-machine snacks at 3 AM on shift',
  currentWin: 'I drink plenty of water at work',
  timeZone: 'America/Chicago',
};

const browser = useBrowser();
const db = e2eDatabase();
const client = { email: uniqueEmail('ditl-client'), userId: '' };
const coachEmail = uniqueEmail('ditl-coach');
// One sign-in per person: a mailbox gets one sign-in link a minute.
let clientSession: { context: BrowserContext; page: Page };
let coachSession: { context: BrowserContext; page: Page };

/** A context signed in through a real sign-in e-mail; the DITL pages poll every 300 ms (their documented test hook). */
const signIn = (email: string, viewport: { width: number; height: number }) =>
  signedInContext(browser(), email, { viewport, timezoneId: 'America/Chicago', testTiming: { ditlPollIntervalMs: 300 } });

const completedGenerations = async (userId: string) =>
  Number((await db.query(`SELECT count(*) FROM ditl.generations WHERE user_id = $1 AND status = 'completed'`, [userId])).rows[0].count);

async function openDitlTab(page: Page): Promise<Locator> {
  await page.goto('/coach');
  await page.getByRole('tab', { name: /^Clients/ }).click();
  const row = await shownInPagedList(page, page.getByTestId('client-row').filter({ hasText: client.email }));
  await row.getByRole('button', { name: 'Manage Client' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Day in the Life' }).click();
  await dialog.getByText("Dana's Day in the Life").waitFor();
  return dialog;
}

const challengeCard = (dialog: Locator) => dialog.locator('[data-moment="challenge"]');

beforeAll(async () => {
  // A client who finished onboarding and asked for their Day in the Life, as the onboarding page does.
  client.userId = await createUser(client.email, 'client', 'Dana Reyes');
  await db.query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, transformation_goal, evolution_start_date, evolution_end_date)
     VALUES ($1, $2, 'Dana Reyes', $3, current_date, current_date + 90)`,
    [client.userId, client.email, answers.transformationGoal],
  );
  const { context, page, accessToken } = await signIn(client.email, phoneViewport);
  clientSession = { context, page };
  const asked = await page.request.post('/api/ditl/generations', { data: { onboardingData: answers }, headers: { authorization: `Bearer ${accessToken}` } });
  expect(asked.status()).toBe(202);
  await createUser(coachEmail, 'coach', 'Alex Coach');
  coachSession = await signIn(coachEmail, laptopViewport);
  await eventually(async () => (await completedGenerations(client.userId)) >= 1, 30_000, 'the first Day in the Life to finish');
});
// One client's story, in order: the coach edits and regenerates, the client reopens the plan, the coach resets.
describe("a client's Day in the Life, seen by the coach and reopened by the client", () => {
  it('lets the coach edit a moment, regenerate, and find the edit still there', async () => {
    const { page } = coachSession;
    const dialog = await openDitlTab(page);
    await dialog.getByTestId('ditl-status').filter({ hasText: 'Completed' }).waitFor();
    await dialog.getByText('Made by the offline planner').waitFor();
    await expect(dialog.locator('[data-moment]').count()).resolves.toBeGreaterThanOrEqual(5);
    await expect(challengeCard(dialog).getByText('3:00 AM', { exact: true }).isVisible()).resolves.toBe(true);
    const generatedHabit = (await challengeCard(dialog).getByText('Habit:').locator('..').textContent())?.replace('Habit:', '').trim();

    await challengeCard(dialog).getByRole('button', { name: /^Edit/ }).click();
    await challengeCard(dialog).getByLabel('What happens').fill('   ');
    await challengeCard(dialog).getByRole('button', { name: 'Save' }).click();
    await challengeCard(dialog).getByText('Write what happens at this moment').waitFor();
    await challengeCard(dialog).getByLabel('What happens').fill(coachNarrative);
    await challengeCard(dialog).getByLabel('Habit').fill(coachHabit);
    await challengeCard(dialog).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Moment saved').waitFor();
    await challengeCard(dialog).getByText('Edited by coach').waitFor();
    await challengeCard(dialog).getByText(coachNarrative).waitFor();
    await challengeCard(dialog).getByText(`The planner wrote: “${generatedHabit}”`).waitFor();

    await page.getByText('Moment saved').waitFor({ state: 'hidden', timeout: 15_000 });
    await saveScreenshot(page, 'ditl-coach-view-coach-edited-laptop');
    // The view's refetch after the request is held back, so the test also sees the tab while the request is pending.
    await page.route('**/api/coach/clients/*/ditl', (route) => setTimeout(() => void route.continue(), 1_000), { times: 1 });
    await dialog.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByText('Regenerating the Day in the Life').waitFor();
    await saveScreenshot(page, 'ditl-coach-view-coach-regenerating-laptop');
    // The tab polls until the new plan is in; then the button is back and the edit sits on the new plan's moment.
    const regenerateButton = dialog.getByRole('button', { name: 'Regenerate', exact: true });
    await regenerateButton.waitFor({ timeout: 30_000 });
    await expect(regenerateButton.isEnabled()).resolves.toBe(true);
    await waitUntilTrue(page, `document.querySelector('[data-testid="ditl-status"]')?.textContent === 'Completed'`, 30_000);
    await expect(completedGenerations(client.userId)).resolves.toBe(2);
    await challengeCard(dialog).getByText(coachNarrative).waitFor();
    await challengeCard(dialog).getByText(coachHabit, { exact: false }).first().waitFor();
    await challengeCard(dialog).getByText('Edited by coach').waitFor();
    await page.getByText('Regenerating the Day in the Life').waitFor({ state: 'hidden', timeout: 15_000 });
    await challengeCard(dialog).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'ditl-coach-view-coach-tab-laptop');
    await page.setViewportSize(phoneViewport);
    await challengeCard(dialog).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'ditl-coach-view-coach-tab-phone');
    await page.setViewportSize(laptopViewport);
  });

  it("lets the client reopen their Day in the Life from the home screen, with the coach's moment", async () => {
    const { context, page } = clientSession;
    await openClientHome(page);
    await page.getByText('Your Day in the Life', { exact: true }).waitFor();
    await saveScreenshot(page, 'ditl-coach-view-client-home-phone');
    await page.getByText('Your Day in the Life', { exact: true }).click();
    await page.waitForURL(/\/ditl-welcome\?generationId=/);
    const frame = page.frameLocator('iframe[title="Your Day in the Life presentation"]');
    await frame.getByRole('heading', { name: "Dana's Day in the Life" }).waitFor();
    await frame.getByText(coachNarrative).waitFor();
    await frame.getByText(coachHabit).waitFor();
    const newest = await db.query(`SELECT id FROM ditl.generations WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [client.userId]);
    expect(new URL(page.url()).searchParams.get('generationId')).toBe(newest.rows[0].id);
    await saveScreenshot(page, 'ditl-coach-view-client-ditl-phone');
    await page.setViewportSize(laptopViewport);
    await saveScreenshot(page, 'ditl-coach-view-client-ditl-laptop');
    await context.close();
  });

  it('lets the coach reset the moment to what the planner wrote', async () => {
    const { context, page } = coachSession;
    const dialog = await openDitlTab(page);
    await challengeCard(dialog).getByRole('button', { name: 'Reset to generated' }).click();
    await page.getByText('Moment reset to what the planner wrote').waitFor();
    await waitUntilTrue(page, `!document.querySelector('[data-moment="challenge"]')?.textContent?.includes('Edited by coach')`);
    await expect(challengeCard(dialog).getByText(coachNarrative).count()).resolves.toBe(0);
    await expect(
      db.query(`SELECT count(*)::int AS n FROM ditl.coach_edits WHERE user_id = $1`, [client.userId]).then((result) => result.rows[0].n),
    ).resolves.toBe(0);
    await context.close();
  });
});
