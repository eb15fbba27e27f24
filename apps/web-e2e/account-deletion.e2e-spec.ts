import { insertProgress } from '@spark/testing';
import {
  createUser,
  e2eDatabase,
  openClientHome,
  pendingSparkOwners,
  queueCaptureWhileUploadsFail,
  signedInContext,
  uniqueEmail,
  useBrowser,
} from './support/auth-fixtures';
import { laptopViewport, phoneViewport, saveScreenshot } from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();
const client = { email: uniqueEmail('delete-client'), userId: '' };
const adminEmail = uniqueEmail('delete-admin');

async function confirmationLink(): Promise<string> {
  const confirmation = await waitForEmail((email) => sentTo(client.email)(email) && email.subject === 'Confirm deleting your Spark account', 30_000);
  const link = /Confirm: (\S+)/.exec(confirmation.text ?? '')?.[1];
  if (!link) throw new Error('the confirmation e-mail has no link');
  return link;
}

beforeAll(async () => {
  client.userId = await createUser(client.email, 'client', 'Noor Haddad');
  await insertProgress(db, { userId: client.userId, email: client.email, fullName: 'Noor Haddad', goal: 'Sleep eight hours', daysIn: 10 });
  await createUser(adminEmail, 'admin', 'Ada Admin');
});

describe('Delete my account', () => {
  it('asks on the client home, confirms from the e-mailed link, and the admin sees every part erased', async () => {
    const { context, page } = await signedInContext(browser(), client.email, { viewport: phoneViewport });
    await openClientHome(page);
    const section = page.getByTestId('delete-account');
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await section.getByRole('button', { name: 'E-mail me the confirmation link' }).click();
    await section.getByText('Check your e-mail: the link to confirm deleting your account works for 30 minutes.').waitFor();
    await saveScreenshot(page, 'account-deletion-client-home-phone');
    await queueCaptureWhileUploadsFail(page, 'Not sent yet');
    expect(await pendingSparkOwners(page)).toEqual([client.userId]);

    await page.goto(await confirmationLink());
    await page.getByRole('heading', { name: 'Delete your Spark account?' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await saveScreenshot(page, 'account-deletion-confirm-phone');
    await page.getByRole('button', { name: 'Delete my account permanently' }).click();
    await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor();
    await saveScreenshot(page, 'account-deletion-deleted-phone');
    expect((await db.query(`SELECT 1 FROM auth.users WHERE id = $1`, [client.userId])).rowCount).toBe(0);
    // Nor does the capture that was waiting on this device: the person it belonged to is gone.
    expect(await pendingSparkOwners(page)).toEqual([]);
    // The home no longer opens with this browser's old session.
    await page.goto('/app');
    await page.waitForURL((url) => url.pathname !== '/app');
    await context.close();

    const admin = await signedInContext(browser(), adminEmail, { viewport: laptopViewport });
    await admin.page.goto('/coach');
    await admin.page.getByRole('tab', { name: 'Deletions' }).click();
    const record = admin.page.getByTestId('deletion-record').first();
    await record.getByText(/^Complete · /).waitFor({ timeout: 30_000 });
    for (const part of ['Account & sessions', 'Lead', 'Sparks & progress', 'Day in the Life', 'E-mail ledger', 'Investor contact'])
      await record.getByText(`✓ ${part}`).waitFor();
    await saveScreenshot(admin.page, 'account-deletion-admin-laptop');
    await admin.context.close();
  });
});
