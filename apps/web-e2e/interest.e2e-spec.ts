import type { Page } from 'playwright-core';
import { dwellMs, holdBack, newPage, startDwellTimer } from './support/browser';
import { uniqueEmail, useBrowser } from './support/auth-fixtures';

const browser = useBrowser();

const isAt = (pathname: string) => (url: URL) => url.pathname === pathname;

async function submitInterest(page: Page, email: string, role: 'client' | 'coach'): Promise<void> {
  await page.goto('/interest');
  const form = page.getByRole('form', { name: 'Express interest' }).first();
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('I am a').selectOption(role);
  await form.getByRole('button', { name: 'Get Started Free' }).click();
}

describe('interest funnel', () => {
  it('sends a visitor without a stored lead from the thank-you page back to the interest form', async () => {
    const page = await newPage(browser());
    await page.goto('/interest/thank-you');
    await page.waitForURL(isAt('/interest'), { timeout: 10_000 });
    await page.context().close();
  });

  it('a client submits interest, names a challenge and returns home about 1.5 s later', async () => {
    const page = await newPage(browser());
    const email = uniqueEmail('client');
    await submitInterest(page, email, 'client');

    await page.getByText('Thanks!', { exact: true }).waitFor();
    await page.getByText('Check your email for next steps', { exact: true }).waitFor();
    await page.waitForURL(isAt('/interest/thank-you'));
    expect(await page.evaluate('localStorage.getItem("spark_lead_email")')).toBe(email);
    expect(await page.evaluate('localStorage.getItem("spark_user_role")')).toBe('client');
    await page.getByText('Your Transformation Begins').waitFor();

    await startDwellTimer(page, 'Got it!');
    await page.getByRole('button', { name: 'Staying consistent' }).click();
    await page.getByText('Got it!', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Staying consistent' }).count()).toBe(0);
    await page.waitForURL(isAt('/'), { timeout: 5_000 });
    expect(await dwellMs(page)).toBeGreaterThanOrEqual(1_400);
    await page.context().close();
  });

  it('a coach sees the coaching timeline and no challenge question', async () => {
    const page = await newPage(browser());
    await submitInterest(page, uniqueEmail('coach'), 'coach');
    await page.waitForURL(isAt('/interest/thank-you'));
    await page.getByText('Start Coaching').waitFor();
    expect(await page.getByText("What's your biggest challenge right now?").count()).toBe(0);
    await page.getByRole('link', { name: 'What Comes Next?' }).click();
    await page.waitForURL(isAt('/'));
    await page.context().close();
  });

  it('a second submission of the same e-mail gets a friendly message, not a database error', async () => {
    const page = await newPage(browser());
    const email = uniqueEmail('repeat');
    await submitInterest(page, email, 'client');
    await page.waitForURL(isAt('/interest/thank-you'));

    await submitInterest(page, email, 'client');
    await page.getByText("You're already on the list", { exact: true }).waitFor();
    expect(await page.getByText(/Database error/).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/interest');
    await page.context().close();
  });
  it('a double tap while the submit flow is still loading sends the lead once', async () => {
    const page = await newPage(browser());
    let leadPosts = 0;
    page.on('request', (request) => void (request.method() === 'POST' && new URL(request.url()).pathname === '/api/leads' && leadPosts++));
    // A slow phone: the submit flow (zod, the API client) is held back until both taps have landed.
    const releaseChunk = await holdBack(page, /\/assets\/lead-submission-[\w-]+\.js$/);
    await page.goto('/interest');
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    const form = page.getByRole('form', { name: 'Express interest' }).first();
    await form.getByLabel('Email').fill(uniqueEmail('double-tap'));
    await form.getByRole('button', { name: 'Get Started Free' }).dblclick();
    releaseChunk();
    await page.waitForURL(isAt('/interest/thank-you'));
    await page.waitForTimeout(500);
    expect(leadPosts).toBe(1);
    expect(await page.getByText("You're already on the list").count()).toBe(0);
    await page.context().close();
  });
});
