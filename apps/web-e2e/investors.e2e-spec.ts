import type { Browser, Page } from 'playwright-core';
import { closeUsers, createUser, requestSignIn, uniqueEmail, uniqueIp } from './support/auth-fixtures';
import { baseUrl, laptopViewport, launchBrowser, saveScreenshot } from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(120_000);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeUsers();
});

async function visitor(): Promise<Page> {
  const context = await browser.newContext({ viewport: laptopViewport, baseURL: baseUrl(), extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp() } });
  return context.newPage();
}

async function admin(): Promise<Page> {
  const email = uniqueEmail('investors-admin');
  await createUser(email, 'admin');
  const { token } = await requestSignIn(email);
  const page = await visitor();
  expect((await page.request.post('/api/auth/redeem', { data: { token } })).status()).toBe(200);
  return page;
}

describe('/donate', () => {
  it('stores a deck request without a code and says what happens next', async () => {
    const page = await visitor();
    await page.goto('/donate');
    await page.getByPlaceholder('you@fund.com').first().fill(uniqueEmail('deck-request'));
    await page.getByRole('button', { name: 'Request Full Deck' }).click();
    await page.getByText('We review every request personally').waitFor();
    await page.context().close();
  });

  it('refuses a wrong access code with "Access Denied" and the spec’s message', async () => {
    const page = await visitor();
    await page.goto('/donate');
    await page.getByPlaceholder('you@fund.com').first().fill(uniqueEmail('deck-wrong-code'));
    await page.getByPlaceholder('SPARK-XXXX-XXXX-XXXX-XXXX-XXXX').fill('SPARK-WRONG-CODE-0000-0000-0000');
    await page.getByRole('button', { name: 'Download Deck' }).click();
    await page.getByText('Access Denied').waitFor();
    await page.getByText('Invalid access code. Please check your code and try again.').waitFor();
    await page.context().close();
  });
});

describe('the Investors tab (admins)', () => {
  it('adds an investor, generates a code and e-mails the selected investor after a confirm step', async () => {
    const page = await admin();
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Investors/ }).click();
    await page.getByText('Investor Communications').waitFor();

    const investor = uniqueEmail('investor');
    await page.getByRole('button', { name: 'Add Investor' }).click();
    await page.getByLabel('Investor email').fill(investor);
    await page.getByRole('dialog').getByRole('button', { name: 'Add Investor' }).click();
    await page.getByLabel(`Select ${investor}`).waitFor();

    const row = page.locator('li', { has: page.getByLabel(`Select ${investor}`) });
    await row.getByRole('button', { name: 'Generate Code' }).click();
    await row.getByRole('button', { name: 'Copy Code' }).waitFor();

    expect(await page.getByRole('button', { name: 'Compose Email (0)' }).isDisabled()).toBe(true);
    await page.getByLabel(`Select ${investor}`).check();
    await page.getByRole('button', { name: 'Compose Email (1)' }).click();
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByText('Subject required').waitFor();
    await page.getByText('Message required').waitFor();
    await page.getByLabel('Subject').fill('Spark update');
    await page.getByLabel('Message').fill('Our first cohort finished its 90-day evolution.');
    await page.getByRole('button', { name: 'Review' }).click();
    await saveScreenshot(page, 'investors-confirm-laptop');
    await page.getByRole('button', { name: 'Confirm & Send' }).click();

    const mail = await waitForEmail((candidate) => sentTo(investor)(candidate) && candidate.subject === 'Spark update');
    expect(mail.text).toContain('90-day evolution');
    await page.getByRole('button', { name: 'Compose Email (0)' }).waitFor();
    await page.context().close();
  });
});
