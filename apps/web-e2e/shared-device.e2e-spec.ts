import { REFRESH_COOKIE_NAME } from '@spark/contracts';
import { TINY_PNG } from '@spark/testing';
import type { Page } from 'playwright-core';
import { baseUrl, holdBack, phoneViewport } from './support/browser';
import {
  createUser,
  e2eDatabase,
  markOnboarded,
  pendingSparkOwners,
  queueCaptureWhileUploadsFail,
  requestSignIn,
  signedInContext,
  signInOn,
  sparkKeysStored,
  uniqueEmail,
  useBrowser,
} from './support/auth-fixtures';

// Two people taking turns on one browser: a family tablet, a shared laptop at a gym's front desk.
jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();

async function clientWithProgress(label: string, fullName: string): Promise<{ email: string; userId: string }> {
  const email = uniqueEmail(label);
  const userId = await createUser(email, 'client');
  await db.query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, evolution_start_date, evolution_end_date)
     VALUES ($1, $2, $3, current_date - 10, current_date + 80)`,
    [userId, email, fullName],
  );
  return { email, userId };
}

const sparkNotes = async (userId: string) =>
  (await db.query<{ note: string }>('SELECT note FROM progress.sparks WHERE user_id = $1', [userId])).rows.map((row) => row.note);

/** What a refresh with this cookie value gets: 200 while its session lives (and a new cookie: this spends the value). */
async function refreshWith(cookie: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/auth/refresh`, { method: 'POST', headers: { cookie, origin: baseUrl() } });
  return response.status;
}

async function refreshCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === REFRESH_COOKIE_NAME);
  if (!cookie) throw new Error('no refresh cookie in the browser');
  return `${cookie.name}=${cookie.value}`;
}

/**
 * Counts the page's requests in flight from now on; `quiet` resolves once none has been for `quietMs`. A chain of
 * requests (an upload's grant, the file to storage, the record) runs back to back, so a quiet second means it has
 * ended. Playwright's own `networkidle` is reached once per document and does not wait again after a navigation
 * within the app.
 */
function watchRequests(page: Page): { quiet(quietMs: number): Promise<void> } {
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight += 1;
    lastActivity = Date.now();
  });
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async quiet(quietMs) {
      while (inFlight > 0 || Date.now() - lastActivity < quietMs) await page.waitForTimeout(100);
    },
  };
}

describe('a browser shared by two people', () => {
  it('finishes a sign-out made offline on the server before the next person opens Spark', async () => {
    const { email } = await clientWithProgress('offline-signout', 'Maya Lopez');
    const { context, page } = await signedInContext(browser(), email, { viewport: phoneViewport });
    await markOnboarded(page);
    await page.goto('/app');
    // Offline, the page the sign-out opens comes from the service worker the app installs.
    await page.evaluate('navigator.serviceWorker.ready');
    await page.getByTestId('spark-count').waitFor();
    const cookie = await refreshCookie(page);

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.setOffline(false);

    // The next person opens Spark on the same browser.
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Send Magic Link' }).waitFor();
    expect(await page.getByText('Signed in as', { exact: true }).count()).toBe(0);
    expect(await refreshWith(cookie)).toBe(401);
    await context.close();
  });

  it('ends an open tab of the person who signed out rather than go on as the next one, and uploads nothing of theirs into the new account', async () => {
    const first = await clientWithProgress('shared-first', 'Maya Lopez');
    const next = await clientWithProgress('shared-next', 'Noah Park');
    const { context, page: firstTab } = await signedInContext(browser(), first.email, { viewport: phoneViewport });
    await markOnboarded(firstTab);
    await firstTab.goto('/app');
    await firstTab.getByTestId('spark-count').waitFor();

    // Maya captures while the upload service is away: the spark waits on the device, retried in the background.
    await queueCaptureWhileUploadsFail(firstTab, "Maya's private note");

    // In another tab, Maya's session is signed out and Noah signs in: the browser's refresh cookie is now his.
    const otherTab = await context.newPage();
    await otherTab.goto('/signin');
    await otherTab.getByRole('button', { name: 'Sign out and use different account' }).click();
    await otherTab.waitForURL((url) => url.pathname === '/');
    await signInOn(otherTab, next.email);

    // Maya's tab retries its upload, is refused (her session is over) and renews on the browser's cookie: Noah's.
    const requests = watchRequests(firstTab);
    const renewed = firstTab.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/refresh', { timeout: 60_000 });
    await firstTab.unroute('**/api/sparks/uploads');
    expect((await renewed).status()).toBe(200);
    // Her tab's session ends; her onboarding flag left with her sign-out, so the app sends the tab to /interest.
    await firstTab.waitForURL((url) => url.pathname === '/interest');
    await requests.quiet(1_000);
    expect(await sparkNotes(next.userId)).toEqual([]);
    expect(await sparkNotes(first.userId)).toEqual([]);
    await context.close();
  });

  it("records a capture still on its way to storage in its owner's account only, when the next person signs in on the same tab meanwhile", async () => {
    const maya = await clientWithProgress('uploading-owner', 'Maya Lopez');
    const noah = await clientWithProgress('signs-in-on-tab', 'Noah Park');
    const { context, page, accessToken } = await signedInContext(browser(), maya.email, { viewport: phoneViewport });
    // The page's timers run as usual, and the test can move them on to the session's renewal.
    await page.clock.install();
    await markOnboarded(page);
    await page.goto('/app');
    await page.getByTestId('spark-count').waitFor();

    // Maya captures on a slow connection: her file is still on its way to storage when she hands the phone over.
    const releaseFile = await holdBack(page, /\/incoming\//, 'PUT');
    const fileOnItsWay = page.waitForRequest((request) => request.method() === 'PUT');
    await page.getByTestId('quick-capture-input').setInputFiles({ name: 'maya.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('dialog', { name: 'Quick Capture' }).getByRole('textbox').fill("Maya's private note");
    await page.getByRole('button', { name: 'Capture Spark' }).click();
    await fileOnItsWay;

    // Her session ends (she signed out everywhere from her laptop); the tab learns it when it renews the session.
    const ended = await fetch(`${baseUrl()}/api/auth/sign-out-everywhere`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, origin: baseUrl() },
    });
    expect(ended.status).toBe(204);
    await page.clock.fastForward('30:00');
    await page.getByRole('heading', { name: 'Not authenticated' }).waitFor();

    // Noah signs in on the same tab with his e-mailed code, the page never reloaded.
    const { code } = await requestSignIn(noah.email);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Have a code? Use a code instead' }).click();
    await page.getByLabel('Email').fill(noah.email);
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Sign in with code' }).click();
    await page.getByText('Signed in', { exact: true }).waitFor();

    const requests = watchRequests(page);
    releaseFile();
    await requests.quiet(2_000);
    expect(await sparkNotes(noah.userId)).toEqual([]);
    // Hers waits on the device for her next sign-in, shown to her alone.
    expect(await pendingSparkOwners(page)).toEqual([maya.userId]);
    await context.close();
  });

  it('forgets the home it kept for a person once the server says their session is over, so it no longer opens offline', async () => {
    const maya = await clientWithProgress('ended-elsewhere', 'Maya Lopez');
    const { context, page, accessToken } = await signedInContext(browser(), maya.email, { viewport: phoneViewport });
    await markOnboarded(page);
    await page.goto('/app');
    await page.evaluate('navigator.serviceWorker.ready');
    await page.reload();
    await page.getByTestId('spark-count').waitFor();
    expect(await sparkKeysStored(page)).toContain('spark_client_home');

    // Maya's phone is lost: from her laptop she signs out on every device. The phone comes online once.
    const ended = await fetch(`${baseUrl()}/api/auth/sign-out-everywhere`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, origin: baseUrl() },
    });
    expect(ended.status).toBe(204);
    await page.reload();
    await page.getByRole('heading', { name: 'Not authenticated' }).waitFor();
    expect(await sparkKeysStored(page)).not.toContain('spark_client_home');

    // Whoever holds it now, offline, finds nothing of hers.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Not authenticated' }).waitFor();
    expect(await page.getByText('Maya').count()).toBe(0);
    await context.close();
  });

  it("starts the next person who signs in on the browser clean: not the last person's finished onboarding or goal", async () => {
    const maya = await clientWithProgress('first-owner', 'Maya Lopez');
    const { context, page } = await signedInContext(browser(), maya.email, { viewport: phoneViewport });
    await page.goto('/');
    // Maya finished onboarding here and left without signing out.
    await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true'); localStorage.setItem('spark_user_goal', 'Drink less')`);
    await page.evaluate(`localStorage.setItem('spark_user_email', ${JSON.stringify(maya.email)})`);

    // Noah, a new client, opens his own e-mailed link on the same browser.
    const noah = uniqueEmail('next-owner');
    await createUser(noah, 'client');
    const { token } = await requestSignIn(noah);
    await page.goto(`/magic-link-auth#token=${token}`);
    await page.getByRole('button', { name: `Continue as ${noah}` }).click();
    await page.getByText('Welcome! Redirecting to your onboarding...', { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/onboarding');
    const stored = await page.evaluate<Record<string, string | null>>(
      `({ onboarded: localStorage.getItem('spark_onboarding_complete'), goal: localStorage.getItem('spark_user_goal'), email: localStorage.getItem('spark_user_email') })`,
    );
    expect(stored).toEqual({ onboarded: null, goal: null, email: noah });
    await context.close();
  });

  it("keeps the next person's sign-in when a tab of the last one renews its session at the same moment", async () => {
    const maya = await clientWithProgress('renewing-tab', 'Maya Lopez');
    const { context, page: mayasTab } = await signedInContext(browser(), maya.email, { viewport: phoneViewport });
    await mayasTab.goto('/signin');
    await mayasTab.getByText('Signed in as', { exact: true }).waitFor();
    const noah = uniqueEmail('signs-in-meanwhile');
    await createUser(noah, 'client');
    const { token } = await requestSignIn(noah);
    const noahsTab = await context.newPage();
    await noahsTab.goto(`/magic-link-auth#token=${token}`);
    const signIn = noahsTab.getByRole('button', { name: `Continue as ${noah}` });
    await signIn.waitFor();

    // Maya's tab reloads and renews with her cookie; the answer is slow to come back.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await mayasTab.route(/\/api\/auth\/refresh$/, async (route) => {
      const answer = await route.fetch();
      await released;
      await route.fulfill({ response: answer });
    });
    const renewing = mayasTab.waitForRequest((request) => new URL(request.url()).pathname === '/api/auth/refresh');
    void mayasTab.reload();
    await renewing;
    // Noah confirms his link meanwhile; Maya's renewal goes out once his sign-in is answered, or has had two seconds to be.
    const redeemed = noahsTab.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/redeem', { timeout: 2_000 });
    await signIn.click();
    await redeemed.catch(() => undefined);
    release();
    await noahsTab.getByRole('heading', { name: 'Welcome to Spark' }).waitFor();
    await noahsTab.waitForURL((url) => url.pathname === '/onboarding');

    // The browser's cookie is Noah's session, not Maya's ended one, nor none.
    const renewed = await fetch(`${baseUrl()}/api/auth/refresh`, { method: 'POST', headers: { cookie: await refreshCookie(noahsTab), origin: baseUrl() } });
    expect(renewed.status).toBe(200);
    expect(((await renewed.json()) as { user: { email: string } }).user.email).toBe(noah);
    await context.close();
  });

  it("unsubscribes the browser from the person's reminders when they sign out, so the next person is not shown them", async () => {
    const { email } = await clientWithProgress('push-signout', 'Maya Lopez');
    const { context, page } = await signedInContext(browser(), email, { viewport: phoneViewport });
    // Headless Chromium here reaches no push service to subscribe with: this stands in for the subscription a browser
    // holds after "Notifications on this device", and notes when it is unsubscribed.
    await context.addInitScript(`PushManager.prototype.getSubscription = async () => ({
      endpoint: 'https://fcm.googleapis.com/fcm/send/shared-device',
      unsubscribe: async () => (localStorage.setItem('e2e_push_unsubscribed', 'true'), true),
    })`);
    await markOnboarded(page);
    await page.goto('/app');
    await page.evaluate('navigator.serviceWorker.ready');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(`localStorage.getItem('e2e_push_unsubscribed')`)).toBe('true');
    await context.close();
  });
});
