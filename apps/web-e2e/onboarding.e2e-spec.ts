import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createUser, e2eDatabase, signedInContext, signInOn, sparkKeysStored, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { laptopViewport, phoneViewport, saveScreenshot } from './support/browser';
import { type ReceivedEmail, sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();

interface SignedInClient {
  page: Page;
  userId: string;
  email: string;
  close(): Promise<void>;
}

/** A new client signed in through a real magic link, before onboarding. */
async function signedInClient(
  options: { viewport?: { width: number; height: number }; testTiming?: { ditlPollIntervalMs: number; ditlPollTimeoutMs: number } } = {},
): Promise<SignedInClient> {
  const email = uniqueEmail('onboarding');
  const userId = await createUser(email, 'client');
  const { context, page } = await signedInContext(browser(), email, { viewport: options.viewport ?? phoneViewport, testTiming: options.testTiming });
  return { page, userId, email, close: () => context.close() };
}

const continueButton = (page: Page) => page.getByRole('button', { name: 'Continue' });
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

async function fillAllSteps(page: Page) {
  await page.goto('/onboarding');
  await page.getByLabel('First name').fill('Maya');
  await continueButton(page).click();
  await page.getByLabel('What Sparked your Transformation?').fill('Run a half marathon by June');
  await page.getByRole('button', { name: 'Fitness' }).click();
  await continueButton(page).click();
  await page.getByLabel('Age').fill('34');
  await page.getByLabel('Activity level').selectOption('lightly_active');
  await page.getByLabel('Family status').selectOption('parent');
  await continueButton(page).click();
  await page.getByLabel('Describe a typical day').fill('Office job, two kids, train commute.');
  await page.getByLabel('Your biggest challenge').fill('Too tired after work');
}

/** Someone's first answers, typed but not submitted. */
async function typeFirstAnswers(page: Page) {
  await page.goto('/onboarding');
  await page.getByLabel('First name').fill('Maya');
  await page.getByLabel('Last name').fill('Lopez');
  await continueButton(page).click();
  await page.getByLabel('What Sparked your Transformation?').fill('Run a half marathon by June');
  await continueButton(page).click();
  await page.getByLabel('Age').fill('34');
  await page.getByLabel('Family status').selectOption('parent');
}

const newClientEmail = async () => {
  const email = uniqueEmail('onboarding-next');
  await createUser(email, 'client');
  return email;
};

async function expectEmptyForm(page: Page) {
  await page.goto('/onboarding');
  await expect(page.getByLabel('First name').inputValue()).resolves.toBe('');
  await expect(page.getByLabel('Last name').inputValue()).resolves.toBe('');
  await page.getByLabel('First name').fill('Sam');
  await continueButton(page).click();
  await expect(page.getByLabel('What Sparked your Transformation?').inputValue()).resolves.toBe('');
  await page.getByLabel('What Sparked your Transformation?').fill('Sleep 8 hours');
  await continueButton(page).click();
  await expect(page.getByLabel('Age').inputValue()).resolves.toBe('');
  await expect(page.getByLabel('Family status').inputValue()).resolves.toBe('');
}

describe('client onboarding (/onboarding)', () => {
  it('holds each step until its required answers are given', async () => {
    const { page, close } = await signedInClient();
    await page.goto('/onboarding');
    await expect(heading(page)).resolves.toBe("Let's get to know you");
    await continueButton(page).click();
    await page.getByText('Please tell us your first name').waitFor();
    await page.getByLabel('First name').fill('Maya');
    await continueButton(page).click();
    await page.getByText('Step 2 of 4').waitFor();
    await continueButton(page).click();
    await page.getByText('Please share your goal').waitFor();
    await page.getByLabel('What Sparked your Transformation?').fill('Sleep 8 hours');
    await continueButton(page).click();
    await page.getByLabel('Age').fill('17');
    await continueButton(page).click();
    await page.getByText('Please enter an age from 18 to 100').waitFor();
    await page.getByText('Please choose your activity level').waitFor();
    await saveScreenshot(page, 'onboarding-step3-errors-phone');
    await close();
  });

  it('keeps the answers when the user goes back, forward and reloads', async () => {
    const { page, close } = await signedInClient({ viewport: laptopViewport });
    await page.goto('/onboarding');
    await page.getByLabel('First name').fill('Maya');
    await page.getByLabel('Last name').fill('Lopez');
    await continueButton(page).click();
    await page.getByLabel('What Sparked your Transformation?').fill('Run a half marathon by June');
    await page.getByRole('button', { name: 'Sleep' }).click();
    await continueButton(page).click();
    await page.getByText('Step 3 of 4').waitFor();
    await saveScreenshot(page, 'onboarding-step3-laptop');

    await page.goBack();
    await page.getByText('Step 2 of 4').waitFor();
    await expect(page.getByLabel('What Sparked your Transformation?').inputValue()).resolves.toBe('Run a half marathon by June');
    await expect(page.getByRole('button', { name: 'Sleep' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await page.goBack();
    await expect(page.getByLabel('Last name').inputValue()).resolves.toBe('Lopez');
    await page.goForward();
    await page.reload();
    await page.getByText('Step 2 of 4').waitFor();
    await expect(page.getByLabel('What Sparked your Transformation?').inputValue()).resolves.toBe('Run a half marathon by June');
    await close();
  });

  it('forgets the answers typed so far when the client signs out: the next person on the browser starts from an empty form', async () => {
    const { page, close } = await signedInClient();
    await typeFirstAnswers(page);
    await page.goto('/signin?product=spark');
    await page.getByRole('button', { name: 'Sign out and use different account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(sparkKeysStored(page)).resolves.toEqual([]);

    await signInOn(page, await newClientEmail());
    await expectEmptyForm(page);
    await close();
  });

  it('never fills the form with the draft of someone else who left without signing out', async () => {
    const { page, close } = await signedInClient();
    await typeFirstAnswers(page);
    await expect(sparkKeysStored(page)).resolves.toContain('spark_onboarding_data');

    await signInOn(page, await newClientEmail());
    await expectEmptyForm(page);
    // The new person's own draft is kept across page loads as usual.
    await page.goto('/onboarding');
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Sam');
    await close();
  });

  it('on Complete Onboarding, says something is missing and opens the step with the blank answer', async () => {
    const { page, close } = await signedInClient();
    await fillAllSteps(page);
    await page.getByLabel('Your biggest challenge').fill('');
    await page.getByRole('button', { name: 'Complete Onboarding' }).click();
    await page.getByText('Please fill out all required fields').waitFor();
    await page.getByText('We need a bit more information to create your personalized plan').waitFor();
    await page.getByText('Please share your biggest challenge').waitFor();

    // An earlier answer cleared after going back, then forward to the last step again.
    await page.getByLabel('Your biggest challenge').fill('Too tired after work');
    await page.goBack();
    await page.goBack();
    await page.getByText('Step 2 of 4').waitFor();
    await page.getByLabel('What Sparked your Transformation?').fill('');
    await page.goForward();
    await page.goForward();
    await page.getByText('Step 4 of 4').waitFor();
    await page.getByRole('button', { name: 'Complete Onboarding' }).click();
    await page.getByText('Step 2 of 4').waitFor();
    await page.getByText('Please share your goal').waitFor();
    await page.getByText('Please fill out all required fields').waitFor();
    await saveScreenshot(page, 'onboarding-missing-goal-phone');

    await page.getByLabel('What Sparked your Transformation?').fill('Run a half marathon by June');
    await continueButton(page).click();
    await continueButton(page).click();
    await page.getByRole('button', { name: 'Complete Onboarding' }).click();
    await page.waitForURL('**/ditl-welcome');
    await close();
  });

  it('finishes onboarding, then polls /ditl-welcome until the presentation is shown', async () => {
    const { page, userId, close } = await signedInClient();
    await fillAllSteps(page);
    await saveScreenshot(page, 'onboarding-step4-phone');
    await page.getByRole('button', { name: 'Complete Onboarding' }).click();
    await page.waitForURL('**/ditl-welcome');
    const frame = page.frameLocator('iframe[title="Your Day in the Life presentation"]');
    await frame.getByRole('heading', { name: "Maya's Day in the Life" }).waitFor({ timeout: 30_000 });
    await expect(frame.getByText('offline planner').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Get Full DITL (Coming Soon)' }).isDisabled()).resolves.toBe(true);
    await saveScreenshot(page, 'ditl-welcome-ready-phone');
    await page.setViewportSize(laptopViewport);
    await saveScreenshot(page, 'ditl-welcome-ready-laptop');

    const progress = await db.query('SELECT evolution_end_date - evolution_start_date AS days FROM progress.user_progress WHERE user_id = $1', [userId]);
    expect(progress.rows[0]).toEqual({ days: 90 });
    await expect(page.evaluate(`localStorage.getItem('spark_onboarding_complete')`)).resolves.toBe('true');
    await page.getByRole('link', { name: 'Continue to App' }).click();
    await page.waitForURL('**/app');
    await close();
  });
});

describe('the goal and confirmation screens (/goal, /confirmation)', () => {
  it('keeps Continue disabled while the goal is blank, then confirms and opens the app after 2.5 s', async () => {
    const { page, close } = await signedInClient();
    await page.goto('/goal');
    const next = page.getByRole('button', { name: 'Continue' });
    await expect(next.isDisabled()).resolves.toBe(true);
    await page.getByLabel('What Sparked your Transformation?').fill('   ');
    await expect(next.isDisabled()).resolves.toBe(true);
    await page.getByLabel('What Sparked your Transformation?').fill('Cook at home four nights a week');
    await saveScreenshot(page, 'goal-phone');
    await next.click();
    await page.getByRole('heading', { name: "You're All Set!" }).waitFor();
    await saveScreenshot(page, 'confirmation-phone');
    await page.waitForURL('**/app', { timeout: 10_000 });
    await expect(page.evaluate(`localStorage.getItem('spark_onboarding_complete')`)).resolves.toBe('true');
    await close();
  });
});

describe('the DITL welcome page (/ditl-welcome)', () => {
  it('sends a client who has not finished onboarding to /onboarding', async () => {
    const { page, close } = await signedInClient();
    await page.goto('/ditl-welcome');
    await page.waitForURL('**/onboarding');
    await close();
  });

  it('tells the client it is still working when the generation stalls past the timeout', async () => {
    const { page, userId, close } = await signedInClient({ testTiming: { ditlPollIntervalMs: 200, ditlPollTimeoutMs: 1500 } });
    // A generation stuck in "generating" with no job behind it: the stalled case.
    const generationId = randomUUID();
    await db.query(
      `INSERT INTO ditl.generations (id, user_id, email, answers, status, progress) VALUES ($1, $2, 'stalled@example.com', '{}', 'generating', 40)`,
      [generationId, userId],
    );
    await page.goto('/');
    await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true'); localStorage.setItem('spark_ditl_generation_id', '${generationId}')`);
    await page.goto('/ditl-welcome');
    await page.getByText('40% complete').waitFor();
    await saveScreenshot(page, 'ditl-welcome-generating-phone');
    await page.getByText("We're still working on your DITL! You'll receive it via email within the hour.").waitFor();
    await saveScreenshot(page, 'ditl-welcome-timeout-phone');
    await close();
  });

  it('shows the spec messages for a failed generation and for a missing generation id', async () => {
    const { page, userId, close } = await signedInClient();
    const generationId = randomUUID();
    await db.query(`INSERT INTO ditl.generations (id, user_id, email, answers, status) VALUES ($1, $2, 'failed@example.com', '{}', 'failed')`, [
      generationId,
      userId,
    ]);
    await page.goto('/');
    await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true'); localStorage.setItem('spark_ditl_generation_id', '${generationId}')`);
    await page.goto('/ditl-welcome');
    await page.getByText('We encountered an issue creating your DITL. No worries - you can continue to the app!').waitFor();
    await page.evaluate(`localStorage.removeItem('spark_ditl_generation_id')`);
    await page.reload();
    await page.getByText('Your personalized DITL is being prepared and will arrive via email soon!').waitFor();
    await close();
  });
});

describe('a DITL request that could not reach Spark', () => {
  const testTiming = { ditlPollIntervalMs: 500, ditlPollTimeoutMs: 60_000 };
  const frameOf = (page: Page) => page.frameLocator('iframe[title="Your Day in the Life presentation"]');
  const readyMailTo = (email: string) => (mail: ReceivedEmail) => sentTo(email)(mail) && mail.subject === 'Your Day in the Life is ready';
  const generationsOf = async (userId: string) => (await db.query('SELECT status FROM ditl.generations WHERE user_id = $1', [userId])).rows;

  /**
   * This page's DITL requests fail on the way, as a browser sees a Spark it cannot reach, until `restore` lets them
   * through. Only this page's: the browser tests share one running product, and another test may be generating a Day
   * in the Life at the same time.
   */
  async function unreachableDitlRequests(page: Page) {
    const pattern = '**/api/ditl/generations';
    let failures = 0;
    const waiting: { count: number; resolve: () => void }[] = [];
    await page.route(pattern, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      failures += 1;
      for (const waiter of waiting.filter(({ count }) => count <= failures)) waiter.resolve();
      await route.abort('connectionrefused');
    });
    return {
      /** Settles once `count` requests in all have failed. */
      failed: (count: number) => new Promise<void>((resolve) => (count <= failures ? resolve() : waiting.push({ count, resolve }))),
      restore: () => page.unroute(pattern),
    };
  }

  /** Onboarding completed, on /ditl-welcome, while this page's DITL requests cannot reach Spark. */
  async function finishedWithDitlUnreachable(page: Page) {
    const unreachable = await unreachableDitlRequests(page);
    await fillAllSteps(page);
    await page.getByRole('button', { name: 'Complete Onboarding' }).click();
    await page.waitForURL('**/ditl-welcome');
    return unreachable;
  }

  it('is sent again by /ditl-welcome, which shows the presentation once Spark is reachable; generated and e-mailed once', async () => {
    const { page, userId, email, close } = await signedInClient({ testTiming });
    const unreachable = await finishedWithDitlUnreachable(page);
    await page.getByText('Creating your personalized Day in the Life...').waitFor();
    // The page asks again, and fails again, while Spark cannot be reached.
    await unreachable.failed(2);
    await expect(sparkKeysStored(page)).resolves.toContain('spark_ditl_request_pending');
    await expect(page.getByText('Your personalized DITL is being prepared and will arrive via email soon!').count()).resolves.toBe(0);
    await saveScreenshot(page, 'ditl-welcome-unreachable-phone');
    await unreachable.restore();

    await frameOf(page).getByRole('heading', { name: "Maya's Day in the Life" }).waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'ditl-welcome-after-outage-phone');
    await waitForEmail(readyMailTo(email), 15_000);
    expect(await generationsOf(userId)).toEqual([{ status: 'completed' }]);
    await expect(sparkKeysStored(page)).resolves.not.toContain('spark_ditl_request_pending');
    await close();
  });
});
