// Users and sign-in e-mails for browser tests: a user row written straight into the e2e
// database (the product's only other way is an approved lead), the link read from the mailbox.
import { randomInt } from 'node:crypto';
import { sessionSchema } from '@spark/contracts';
import { Pool } from 'pg';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { insertUser, TINY_PNG } from '@spark/testing';
import { baseUrl, launchBrowser, serviceUnavailable, uniqueIp, visitorContext } from './browser';
import { sentTo, waitForEmail } from './mailbox';

// The database global-setup's stack migrates (stack.ts: databaseName spark_e2e).
const e2eDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/spark_e2e';
let pool: Pool | undefined;

// A mailbox of its own (no +tag: the lead limits count ada+1@ and ada+2@ as one inbox).
export const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${randomInt(1e6)}@example.com`;

export async function createUser(email: string, role: 'client' | 'coach' | 'admin', fullName: string | null = null): Promise<string> {
  return insertUser(e2eDatabase(), { email, role, fullName });
}

/** The e2e database, for what a test reads back. */
export function e2eDatabase(): Pool {
  pool ??= new Pool({ connectionString: e2eDatabaseUrl, max: 2 });
  return pool;
}

async function closeUsers(): Promise<void> {
  await pool?.end();
  pool = undefined;
}

/**
 * Chromium for the tests of the calling file: launched before them, closed after them together with the e2e
 * database's pool. Called at the top of a test file; the function it returns is called inside tests and hooks.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await closeUsers();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll');
    return browser;
  };
}

export interface SignInEmail {
  token: string;
  code: string;
}

/** Reads the newest sign-in e-mail to `email`: the link's token and the 6-digit code. */
export async function signInEmail(email: string): Promise<SignInEmail> {
  const mail = await waitForEmail((candidate) => sentTo(email)(candidate) && /sign-in link/i.test(candidate.subject));
  const text = mail.text ?? '';
  const token = /[?&#]token=([\w-]+)/.exec(text)?.[1];
  const code = /code[^\d]*(\d{6})/i.exec(text)?.[1];
  if (!token || !code) throw new Error(`the sign-in e-mail to ${email} has no link or code:\n${text}`);
  return { token, code };
}

/** Asks the API for a link (as /signin does) and returns what the e-mail carries. */
export async function requestSignIn(email: string): Promise<SignInEmail> {
  const response = await fetch(`${baseUrl()}/api/auth/magic-link`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': uniqueIp() },
    body: JSON.stringify({ email, product: 'spark' }),
  });
  if (response.status !== 202) throw new Error(`magic-link answered ${response.status}: ${await response.text()}`);
  return signInEmail(email);
}

export interface SignedInContext {
  context: BrowserContext;
  page: Page;
  /** The session's bearer token, for what a test asks the API directly. */
  accessToken: string;
}

/**
 * A visitor's context (`visitorContext`) signed in as `email`, its e-mailed link redeemed. `testTiming` sets the
 * web app's documented test hook (`window.__SPARK_TEST__`, see apps/web/src/lib/test-overrides.ts) before any page script runs.
 */
export async function signedInContext(
  browser: Browser,
  email: string,
  options: BrowserContextOptions & { testTiming?: Record<string, number> } = {},
): Promise<SignedInContext> {
  const { testTiming, ...contextOptions } = options;
  const context = await visitorContext(browser, contextOptions);
  if (testTiming) await context.addInitScript(`window.__SPARK_TEST__ = ${JSON.stringify(testTiming)}`);
  const page = await context.newPage();
  return { context, page, accessToken: await signInOn(page, email) };
}

/**
 * Signs `email` in on the page's browser, its e-mailed link redeemed, replacing whoever was signed in there: the next
 * person on a shared device. Returns the session's bearer token.
 */
export async function signInOn(page: Page, email: string): Promise<string> {
  const { token } = await requestSignIn(email);
  const redeemed = await page.request.post('/api/auth/redeem', { data: { token } });
  expect(redeemed.status()).toBe(200);
  return sessionSchema.parse(await redeemed.json()).access_token;
}

/** Leaves the page on `/` with the app's flag for a client who has finished onboarding set, as such a client's browser has it. */
export async function markOnboarded(page: Page): Promise<void> {
  await page.goto('/');
  await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true')`);
}

/** The app's own localStorage keys (spark_*) the page's browser holds, sorted. */
export const sparkKeysStored = (page: Page): Promise<string[]> =>
  page.evaluate<string[]>(`Object.keys(localStorage).filter((key) => key.startsWith('spark_')).sort()`);

/** Opens the client home as a client who has finished onboarding sees it. */
export async function openClientHome(page: Page): Promise<void> {
  await markOnboarded(page);
  await page.goto('/app');
}

/**
 * Captures a photo with `note` on the open client home while the upload service is away: the spark waits on the
 * device (the offline outbox), retried in the background until the test lets uploads through.
 */
export async function queueCaptureWhileUploadsFail(page: Page, note: string): Promise<void> {
  await page.route('**/api/sparks/uploads', (route) => route.fulfill(serviceUnavailable));
  await page.getByTestId('quick-capture-input').setInputFiles({ name: 'waiting.png', mimeType: 'image/png', buffer: TINY_PNG });
  await page.getByRole('dialog', { name: 'Quick Capture' }).waitFor();
  await page.getByLabel('Note').fill(note);
  await page.getByRole('button', { name: 'Capture Spark' }).click();
  await page.getByTestId('pending-sparks').waitFor();
}

/** Whose captures wait in the browser's offline outbox (IndexedDB), one entry each. */
export const pendingSparkOwners = (page: Page) =>
  page.evaluate<string[]>(`new Promise((resolve, reject) => {
    const opened = indexedDB.open('spark-client-app');
    opened.onerror = () => reject(opened.error);
    opened.onsuccess = () => {
      const all = opened.result.transaction('pending-sparks', 'readonly').objectStore('pending-sparks').getAll();
      all.onsuccess = () => (opened.result.close(), resolve(all.result.map((spark) => spark.userId)));
    };
  })`);
