import type { Browser, Page } from 'playwright-core';
import { closeUsers, createUser, requestSignIn, uniqueEmail, uniqueIp } from './support/auth-fixtures';
import { baseUrl, laptopViewport, launchBrowser, saveScreenshot } from './support/browser';

jest.setTimeout(120_000);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeUsers();
});

async function publisher(): Promise<{ page: Page; dialogs: string[] }> {
  const email = uniqueEmail('dev-log-admin');
  await createUser(email, 'admin');
  const { token } = await requestSignIn(email);
  const context = await browser.newContext({ viewport: laptopViewport, baseURL: baseUrl(), extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp() } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  expect((await page.request.post('/api/auth/redeem', { data: { token } })).status()).toBe(200);
  await page.goto('/coach');
  await page.getByRole('tab', { name: "Developer's Log" }).click();
  await page.getByRole('tab', { name: 'New Entry' }).click();
  return { page, dialogs };
}

describe("the Developer's Log publisher", () => {
  it('refuses empty content and an entry whose wiki-link image was not uploaded', async () => {
    const { page } = await publisher();
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByText('No content').waitFor();
    await page.getByLabel('Entry markdown').fill('# Week 12\n\n![[missing.png]]');
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByText('Missing images').waitFor();
    await page.context().close();
  });

  it('publishes an entry that /log lists and /log/:slug renders, with injected markup inert', async () => {
    const { page, dialogs } = await publisher();
    const title = `Week ${Date.now()}: offline capture`;
    await page.getByLabel('Entry markdown').fill(
      `# ${title}\n\nSparks captured offline now upload by themselves.\n\n<script>alert('script ran')</script>\n\n<img src="x" onerror="alert('handler ran')">`,
    );
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('heading', { name: `Preview: ${title}` }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Published' }).waitFor();

    await page.goto('/log');
    await page.getByRole('link', { name: title }).click();
    await page.getByText('Sparks captured offline now upload by themselves.').waitFor();
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.locator('[onerror]').count()).toBe(0);
    await saveScreenshot(page, 'dev-log-post-laptop');
    await page.context().close();
  });
});
