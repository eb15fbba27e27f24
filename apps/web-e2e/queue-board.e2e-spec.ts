import { developmentSigningKeys } from '@spark/config';
import { QUEUES } from '@spark/contracts';
import { JobQueues, signedJobData } from '@spark/jobs';
import { eventually } from '@spark/testing';
import { Redis } from 'ioredis';
import { createUser, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { baseUrl, laptopViewport, phoneViewport, saveScreenshot } from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(90_000);

const browser = useBrowser();
let connection: Redis;
let jobs: JobQueues;

beforeAll(async () => {
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  jobs = new JobQueues(connection, process.env.E2E_BUS_PREFIX ?? '');
});
afterAll(async () => {
  await jobs?.close();
  connection?.disconnect();
});

async function signedIn(role: 'coach' | 'admin', viewport: { width: number; height: number }) {
  const email = uniqueEmail(`queues-${role}`);
  await createUser(email, role);
  return signedInContext(browser(), email, { viewport });
}

/**
 * A sign-in-locked notice the notifier refused: it was written straight into Redis, without its address and
 * unsigned. It is then replaced by what the auth-service would have queued, signed, and waits for a retry.
 */
async function failedMailJob(email: string): Promise<string> {
  const mail = jobs.queue(QUEUES.mail);
  const job = await mail.add('code-sign-in-locked', { email: 42 }, { jobId: `queue-board-e2e-${Date.now()}`, attempts: 1 });
  for (let i = 0; (await job.getState()) !== 'failed'; i++) {
    if (i > 300) throw new Error('the unsigned job never failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await job.updateData(signedJobData(developmentSigningKeys(), { queue: QUEUES.mail, name: 'code-sign-in-locked', data: { email } }, job.id ?? ''));
  return job.id ?? '';
}

describe('the queue dashboard', () => {
  it('takes an admin from the coach dashboard to the queues, where a failed e-mail is retried and sent', async () => {
    const recipient = uniqueEmail('queues-retried');
    const jobId = await failedMailJob(recipient);
    const { page } = await signedIn('admin', laptopViewport);
    await page.goto('/coach');
    await page.getByRole('button', { name: 'Queues' }).waitFor();
    await saveScreenshot(page, 'queue-board-coach-dashboard-laptop');
    await page.getByRole('button', { name: 'Queues' }).click();
    await page.waitForURL(`${baseUrl()}/admin/queues`);
    await page.getByText(QUEUES.mail, { exact: true }).first().waitFor();
    await page.getByText(QUEUES.ditl, { exact: true }).first().waitFor();
    await saveScreenshot(page, 'queue-board-overview-laptop');

    await page.getByRole('link', { name: QUEUES.mail, exact: true }).first().click();
    await page.getByRole('link', { name: /^FAILED/ }).click();
    const card = page.locator('[class*="card"]').filter({ has: page.getByText(jobId, { exact: true }) });
    await card.getByText('mail/code-sign-in-locked: not signed by auth', { exact: false }).waitFor();
    await saveScreenshot(page, 'queue-board-failed-laptop');
    const retry = card.locator('button:has(svg.lucide-refresh-cw)');
    await retry.hover();
    await page.getByText('Retry', { exact: true }).waitFor();
    await retry.click();
    await page.getByText('Are you sure that you want to retry this job?').waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await waitForEmail(sentTo(recipient));
    // The e-mail leaves before BullMQ records the job's end, so the state is read once the job has left the worker.
    const endState = await eventually(
      async () => {
        const state = await jobs.queue(QUEUES.mail).getJobState(jobId);
        return state !== 'active' && state !== 'waiting' && state;
      },
      10_000,
      'the retried job to leave the worker',
    );
    expect(endState).toBe('completed');
    await card.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('opens from a browser where the client app installed its service worker', async () => {
    const { page } = await signedIn('admin', laptopViewport);
    await page.goto('/coach');
    // What opening /app leaves in the browser: a worker that answers the site's page loads from its precache.
    await page.evaluate(`navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)`);
    await page.reload();
    await expect(page.evaluate('navigator.serviceWorker.controller !== null')).resolves.toBe(true);
    await page.getByRole('button', { name: 'Queues' }).click();
    await page.waitForURL(`${baseUrl()}/admin/queues`);
    await page.getByText(QUEUES.mail, { exact: true }).first().waitFor();
    await page.context().close();
  });

  it('fits a phone', async () => {
    const { page } = await signedIn('admin', phoneViewport);
    await page.goto('/coach');
    await page.getByRole('button', { name: 'Queues' }).waitFor();
    await saveScreenshot(page, 'queue-board-coach-dashboard-phone');
    await page.getByRole('button', { name: 'Queues' }).click();
    await page.waitForURL(`${baseUrl()}/admin/queues`);
    await page.getByText(QUEUES.mail, { exact: true }).first().waitFor();
    await saveScreenshot(page, 'queue-board-overview-phone');
    await page.context().close();
  });

  it('shows a coach no Queues button, and no board at /admin/queues', async () => {
    const { page, accessToken } = await signedIn('coach', laptopViewport);
    await page.goto('/coach');
    await page.getByRole('tab', { name: /Leads/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Queues' }).count()).toBe(0);
    expect((await page.request.post('/api/admin/queue-board/tickets', { headers: { authorization: `Bearer ${accessToken}` } })).status()).toBe(403);
    await page.goto('/admin/queues');
    await page.waitForURL(`${baseUrl()}/signin`);
    expect((await page.request.get('/admin/queues/api/queues')).status()).toBe(401);
    await page.context().close();
  });
});
