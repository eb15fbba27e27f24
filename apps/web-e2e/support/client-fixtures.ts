import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createUser, e2eDatabase, markOnboarded, signedInContext, uniqueEmail } from './auth-fixtures';
import { phoneViewport } from './browser';

// A real 2x2 PNG, so the capture dialog's preview renders.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
export const photo = () => ({ name: 'sunrise.png', mimeType: 'image/png', buffer: PNG });

export interface SignedInClient {
  context: BrowserContext;
  page: Page;
  userId: string;
}

export interface SignedInClientOptions {
  viewport?: { width: number; height: number };
  /** The page's fixed time, for what the home says at a time of day. */
  clock?: Date;
  /** The web app's test hook (`window.__SPARK_TEST__`, apps/web/src/lib/test-overrides.ts). */
  testTiming?: Record<string, number>;
}

/** A client with a progress row, signed in through a real magic link, onboarding flag set. */
export async function signedInClient(browser: Browser, { viewport = phoneViewport, clock, testTiming }: SignedInClientOptions = {}): Promise<SignedInClient> {
  const email = uniqueEmail('client-app');
  const userId = await createUser(email, 'client');
  await e2eDatabase().query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, transformation_goal, evolution_start_date, evolution_end_date)
     VALUES ($1, $2, 'Maya Lopez', 'Run a half marathon by spring', current_date - 30, current_date + 60)`,
    [userId, email],
  );
  const { context, page } = await signedInContext(browser, email, { viewport, timezoneId: 'America/New_York', testTiming });
  if (clock) await page.clock.setFixedTime(clock);
  await markOnboarded(page);
  return { context, page, userId };
}

/** Opens /app, then again once the service worker it registers is active, so the page's requests go through it. */
export async function openHomeThroughServiceWorker(page: Page): Promise<void> {
  await page.goto('/app');
  await page.evaluate('navigator.serviceWorker.ready');
  await page.reload();
  await page.getByTestId('spark-count').waitFor();
  await expect(page.evaluate('navigator.serviceWorker.controller !== null')).resolves.toBe(true);
}

/** How many sparks the server recorded for the client. */
export const sparkRows = async (userId: string) =>
  Number((await e2eDatabase().query('SELECT count(*) FROM progress.sparks WHERE user_id = $1', [userId])).rows[0].count);
