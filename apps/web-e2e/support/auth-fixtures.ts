// Users and sign-in e-mails for browser tests: a user row written straight into the e2e
// database (the product's only other way is an approved lead), the link read from the mailbox.
import { randomInt } from 'node:crypto';
import { Pool } from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { insertUser } from '@spark/testing';
import { baseUrl } from './browser';
import { sentTo, waitForEmail } from './mailbox';

// The database global-setup's stack migrates (stack.ts: databaseName spark_e2e).
const e2eDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/spark_e2e';
let pool: Pool | undefined;

// A mailbox of its own (no +tag: the lead limits count ada+1@ and ada+2@ as one inbox).
export const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${randomInt(1e6)}@example.com`;

/** A documentation-range address per caller, so per-IP rate limits never couple two tests. */
export const uniqueIp = () => `198.51.100.${randomInt(1, 255)}, 203.0.113.${randomInt(1, 255)}`;

export async function createUser(email: string, role: 'client' | 'coach' | 'admin', fullName: string | null = null): Promise<string> {
  return insertUser(e2eDatabase(), { email, role, fullName });
}

/** The e2e database, for what a test reads back. */
export function e2eDatabase(): Pool {
  pool ??= new Pool({ connectionString: e2eDatabaseUrl, max: 2 });
  return pool;
}

export async function closeUsers(): Promise<void> {
  await pool?.end();
  pool = undefined;
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

/** A browser context signed in as `email` (its e-mailed link redeemed), calling from an address of its own. */
export async function signedInContext(
  browser: Browser,
  email: string,
  options: { viewport: { width: number; height: number }; timezoneId?: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const { token } = await requestSignIn(email);
  const context = await browser.newContext({ ...options, baseURL: baseUrl(), extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp() } });
  const page = await context.newPage();
  const redeemed = await page.request.post('/api/auth/redeem', { data: { token } });
  expect(redeemed.status()).toBe(200);
  return { context, page };
}

/** Opens the client home as a client who has finished onboarding sees it. */
export async function openClientHome(page: Page): Promise<void> {
  await page.goto('/');
  await page.evaluate(`localStorage.setItem('spark_onboarding_complete', 'true')`);
  await page.goto('/app');
}
