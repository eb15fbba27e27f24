import { insertProgress } from '@spark/testing';
import { createUser, e2eDatabase, openClientHome, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { laptopViewport, loseFirstAnswer, phoneViewport, saveScreenshot, shownInPagedList } from './support/browser';
import { sentTo, waitForEmails } from './support/mailbox';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();
const client = { email: uniqueEmail('export-client'), userId: '' };
const adminEmail = uniqueEmail('export-admin');
const exportSubject = 'Your Spark data is ready to download';

/** The download link of the `count`-th export e-mail to the client, once it arrived. */
async function exportLink(count: number): Promise<string> {
  const exportMails = await waitForEmails((email) => sentTo(client.email)(email) && email.subject === exportSubject, count, 60_000);
  const link = /Download: (\S+)/.exec(exportMails[count - 1]?.text ?? '')?.[1];
  if (!link) throw new Error('the export e-mail has no link');
  return link;
}

beforeAll(async () => {
  client.userId = await createUser(client.email, 'client', 'Maya Lopez');
  await insertProgress(db, { userId: client.userId, email: client.email, fullName: 'Maya Lopez', goal: 'Run a half marathon by spring', daysIn: 10 });
  await createUser(adminEmail, 'admin', 'Ada Admin');
});

describe('Download my data', () => {
  it('queues the export from the client home and the e-mailed link downloads a ZIP', async () => {
    const { context, page } = await signedInContext(browser(), client.email, { viewport: phoneViewport });
    await openClientHome(page);
    const card = page.getByTestId('your-data');
    await card.getByRole('button', { name: 'Download my data' }).click();
    await card.getByText("We're preparing your data. A download link is on its way to your e-mail; it works for 24 hours.").waitFor();
    // A small export is offered in the page as soon as it is built.
    const now = card.getByRole('link', { name: 'Download now' });
    await now.waitFor({ timeout: 60_000 });
    const inPage = await page.request.get((await now.getAttribute('href')) ?? '');
    expect((await inPage.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    await saveScreenshot(page, 'data-export-client-home-phone');
    await page.setViewportSize(laptopViewport);
    await saveScreenshot(page, 'data-export-client-home-laptop');

    const archive = await page.request.get(await exportLink(1));
    expect(archive.status()).toBe(200);
    expect((await archive.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    await context.close();
  });

  it('builds one export when the answer to the first press is lost and the client presses again', async () => {
    const email = uniqueEmail('export-again');
    const userId = await createUser(email, 'client', 'Noor Haddad');
    await insertProgress(db, { userId, email, fullName: 'Noor Haddad', goal: 'Sleep better', daysIn: 3 });
    const { context, page } = await signedInContext(browser(), email, { viewport: phoneViewport });
    // The export is queued, but the browser hears 503: the gateway gave up on a progress-service replica that died.
    await loseFirstAnswer(page, /\/api\/progress\/me\/export$/, 'POST');
    await openClientHome(page);
    const card = page.getByTestId('your-data');
    await card.getByRole('button', { name: 'Download my data' }).click();
    await card.getByRole('alert').waitFor();
    await card.getByRole('button', { name: 'Download my data' }).click();
    await card.getByText("We're preparing your data. A download link is on its way to your e-mail; it works for 24 hours.").waitFor();

    await waitForEmails((sent) => sentTo(email)(sent) && sent.subject === exportSubject, 1, 60_000);
    const exports = await db.query(`SELECT status FROM progress.data_exports WHERE user_id = $1`, [userId]);
    expect(exports.rows).toEqual([{ status: 'ready' }]);
    await context.close();
  });

  it('lets an admin send the export to a client from Manage Client', async () => {
    const admin = await signedInContext(browser(), adminEmail, { viewport: laptopViewport });
    await admin.page.goto('/coach');
    await admin.page.getByRole('tab', { name: /^Clients/ }).click();
    const row = await shownInPagedList(admin.page, admin.page.getByTestId('client-row').filter({ hasText: client.email }));
    await row.getByRole('button', { name: 'Manage Client' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Data Export' }).click();
    const tab = dialog.getByTestId('client-export');
    await tab.getByRole('button', { name: 'Send data export to client' }).click();
    await tab.getByText(`Export started. ${client.email} will receive the download link by e-mail.`).waitFor();
    await saveScreenshot(admin.page, 'data-export-admin-manage-laptop');
    await admin.page.setViewportSize(phoneViewport);
    await saveScreenshot(admin.page, 'data-export-admin-manage-phone');
    expect((await admin.page.request.get(await exportLink(2))).status()).toBe(200);
    const audited = await db.query(`SELECT count(*)::int AS count FROM auth.audit_events WHERE action = 'client.data-export' AND target_id = $1`, [
      client.userId,
    ]);
    expect(audited.rows).toEqual([{ count: 1 }]);
    await admin.context.close();
  });
});
