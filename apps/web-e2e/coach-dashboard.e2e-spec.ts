import type { Browser, Dialog, Page } from 'playwright-core';
import { closeUsers, createUser, requestSignIn, uniqueEmail, uniqueIp } from './support/auth-fixtures';
import { baseUrl, laptopViewport, launchBrowser, phoneViewport, saveScreenshot } from './support/browser';
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

/** A browser page signed in as a new user of `role` through a real sign-in e-mail. */
async function signedIn(role: 'client' | 'coach' | 'admin', viewport: { width: number; height: number } = laptopViewport): Promise<{ page: Page; dialogs: string[] }> {
  const email = uniqueEmail(`dashboard-${role}`);
  await createUser(email, role);
  const { token } = await requestSignIn(email);
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp() } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  // Development mode offers to copy the link: decline, so the test does not depend on clipboard access.
  page.on('dialog', (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (dialog.type() === 'confirm' ? dialog.dismiss() : dialog.accept());
  });
  expect((await page.request.post('/api/auth/redeem', { data: { token } })).status()).toBe(200);
  return { page, dialogs };
}

async function submitLead(email: string): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
    body: JSON.stringify({ email, role: 'client' }),
  });
  expect(response.status).toBe(201);
}

const leadRow = (page: Page, email: string) => page.getByTestId('lead-row').filter({ hasText: email });

async function findLead(page: Page, email: string) {
  await page.getByLabel('Search leads').fill(email);
  await leadRow(page, email).waitFor();
  return leadRow(page, email);
}

describe('the coach dashboard guard', () => {
  it('sends a visitor without a session to /interest', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await page.goto('/coach');
    await page.waitForURL('**/interest');
    await context.close();
  });

  it('shows a signed-in client "Access Denied" with the spec’s text and Go Back', async () => {
    const { page } = await signedIn('client');
    await page.goto('/coach');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText("You don't have permission to access the Coach Dashboard.").waitFor();
    await page.getByRole('button', { name: 'Go Back' }).waitFor();
    await page.context().close();
  });

  it('lets a coach in, with the lead count in the header and no admin tabs', async () => {
    const { page } = await signedIn('coach');
    await page.goto('/coach');
    await page.getByText('Lead Management').waitFor();
    await page.getByRole('tab', { name: /^Leads \(\d+\)$/ }).waitFor();
    await page.getByRole('tab', { name: /^Clients \(\d+\)$/ }).waitFor();
    expect(await page.getByRole('tab', { name: 'Investors' }).count()).toBe(0);
    await saveScreenshot(page, 'coach-leads-laptop');
    await page.context().close();
  });
});

describe('acting on leads', () => {
  it('approves a lead: the invite e-mail goes out and the badge reads "User Created"', async () => {
    const email = uniqueEmail('approve-me');
    await submitLead(email);
    const { page, dialogs } = await signedIn('coach');
    await page.goto('/coach');
    const row = await findLead(page, email);
    await row.getByText('Pending Review').waitFor();
    await row.getByRole('button', { name: 'Approve & Send Magic Link' }).click();
    await row.getByText('User Created').waitFor();
    expect(dialogs.some((message) => message.includes(email))).toBe(true);
    await waitForEmail((mail) => sentTo(email)(mail) && /sign-in link/i.test(mail.subject));
    await page.context().close();
  });

  it('rejects a lead: the badge reads "Rejected" and the actions disappear', async () => {
    const email = uniqueEmail('reject-me');
    await submitLead(email);
    const { page } = await signedIn('coach');
    await page.goto('/coach');
    const row = await findLead(page, email);
    await row.getByRole('button', { name: 'Reject' }).click();
    await row.getByText('Rejected').waitFor();
    expect(await row.getByRole('button', { name: 'Approve & Send Magic Link' }).count()).toBe(0);
    await page.context().close();
  });

  it('validates and adds a client lead from the Clients tab', async () => {
    const { page, dialogs } = await signedIn('coach', phoneViewport);
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByRole('button', { name: 'Add Client Lead' }).click();
    await page.getByRole('button', { name: 'Add & Send Magic Link' }).click();
    for (let i = 0; i < 50 && !dialogs.includes('Please enter an email address'); i++) await page.waitForTimeout(100);
    expect(dialogs).toContain('Please enter an email address');
    const email = uniqueEmail('added-by-coach');
    await page.getByRole('dialog').getByRole('textbox').first().fill(email);
    await page.getByRole('button', { name: 'Add & Send Magic Link' }).click();
    await waitForEmail((mail) => sentTo(email)(mail) && /sign-in link/i.test(mail.subject));
    await saveScreenshot(page, 'coach-clients-phone');
    await page.context().close();
  });
});
