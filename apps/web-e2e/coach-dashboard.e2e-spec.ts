import { randomUUID } from 'node:crypto';
import { captureSpark, eventually } from '@spark/testing';
import type { Dialog, Page } from 'playwright-core';
import { createUser, e2eDatabase, markOnboarded, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import {
  baseUrl,
  holdBack,
  laptopViewport,
  newPage,
  paintedPicture,
  phoneViewport,
  saveScreenshot,
  screenSizes,
  searchAnswered,
  uniqueIp,
} from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();

/** A browser page signed in as a new user of `role` through a real sign-in e-mail. */
async function signedIn(
  role: 'client' | 'coach' | 'admin',
  viewport: { width: number; height: number } = laptopViewport,
): Promise<{ page: Page; dialogs: string[] }> {
  const email = uniqueEmail(`dashboard-${role}`);
  await createUser(email, role);
  const { page } = await signedInContext(browser(), email, { viewport });
  const dialogs: string[] = [];
  // Development mode offers to copy the link: decline, so the test does not depend on clipboard access.
  page.on('dialog', (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (dialog.type() === 'confirm' ? dialog.dismiss() : dialog.accept());
  });
  return { page, dialogs };
}

/** A client who finished onboarding: a user and a progress row starting today. */
async function createClient(goal: string): Promise<{ email: string; userId: string }> {
  const email = uniqueEmail('coached-client');
  const userId = await createUser(email, 'client');
  await db.query(
    `INSERT INTO progress.user_progress (user_id, email, full_name, transformation_goal, evolution_start_date, evolution_end_date)
     VALUES ($1, $2, 'Maya Lopez', $3, current_date, current_date + 90)`,
    [userId, email, goal],
  );
  return { email, userId };
}

async function submitLead(email: string, role: 'client' | 'coach' = 'client'): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
    body: JSON.stringify({ email, role }),
  });
  expect(response.status).toBe(201);
}

const leadRow = (page: Page, email: string) => page.getByTestId('lead-row').filter({ hasText: email });

const clientRow = (page: Page, email: string) => page.getByTestId('client-row').filter({ hasText: email });

async function openManageClient(page: Page, email: string): Promise<void> {
  await page.goto('/coach');
  await page.getByRole('tab', { name: /^Clients/ }).click();
  await clientRow(page, email).getByRole('button', { name: 'Manage Client' }).click();
  await page.getByRole('dialog').waitFor();
}

async function findLead(page: Page, email: string) {
  const searched = searchAnswered(page, '/api/coach/leads', email);
  await page.getByLabel('Search leads').fill(email);
  await searched;
  await leadRow(page, email).waitFor();
  return leadRow(page, email);
}

describe('the coach dashboard guard', () => {
  it('sends a visitor without a session to /interest', async () => {
    const page = await newPage(browser());
    await page.goto('/coach');
    await page.waitForURL('**/interest');
    await page.context().close();
  });

  it('shows a signed-in client "Access Denied" with the spec’s text and Go Back', async () => {
    const { page } = await signedIn('client');
    await page.goto('/coach');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText("You don't have permission to access the Coach Dashboard.").waitFor();
    await page.getByRole('button', { name: 'Go Back' }).waitFor();
    await page.context().close();
  });

  it('shows "Verifying access..." while the server checks the role', async () => {
    const { page } = await signedIn('coach');
    const releaseOverview = await holdBack(page, /\/api\/coach\/overview$/);
    await page.goto('/coach');
    await page.getByText('Verifying access...').waitFor();
    releaseOverview();
    await page.getByText('Lead Management').waitFor();
    await page.context().close();
  });

  it('lets a coach in, with the lead count in the header and no admin tabs', async () => {
    const { page } = await signedIn('coach');
    await page.goto('/coach');
    await page.getByText('Lead Management').waitFor();
    await page.getByRole('tab', { name: /^Leads \(\d+\)$/ }).waitFor();
    await page.getByRole('tab', { name: /^Clients \(\d+\)$/ }).waitFor();
    expect(await page.getByRole('tab', { name: 'Investors' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Audit Log' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('a list the server could not give', () => {
  const unavailable = { status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' }) };

  it('says the leads and the clients could not be loaded, never that there are none, and loads them on "Try again"', async () => {
    await submitLead(uniqueEmail('listed-after-retry'));
    const { page } = await signedIn('coach', phoneViewport);
    const leads = /\/api\/coach\/leads\?/;
    await page.route(leads, (route) => route.fulfill(unavailable));
    await page.goto('/coach');
    await page.getByText('The leads could not be loaded.').waitFor();
    expect(await page.getByText('No leads yet').count()).toBe(0);
    await saveScreenshot(page, 'coach-leads-failed-phone');
    await page.unroute(leads);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Submitted:').first().waitFor();

    const clients = /\/api\/coach\/clients\?/;
    await page.route(clients, (route) => route.fulfill(unavailable));
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByText('The clients could not be loaded.').waitFor();
    expect(await page.getByText('No active clients yet').count()).toBe(0);
    await saveScreenshot(page, 'coach-clients-failed-phone');
    await page.unroute(clients);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('The clients could not be loaded.').waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('says a client\'s trends, sparks, private notes and rest days could not be loaded, never that there are none, and loads them on "Try again"', async () => {
    const { email, userId } = await createClient('Stretch before breakfast');
    const { page } = await signedIn('coach', phoneViewport);
    const clientParts = new RegExp(`/api/(coach/clients/${userId}$|progress/clients/${userId}(/sparks\\?.*|/private-notes)?$)`);
    await page.route(clientParts, (route) => route.fulfill(unavailable));
    await openManageClient(page, email);
    await page.getByText("The client's trends could not be loaded.").waitFor();
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('The sparks could not be loaded.').waitFor();
    await page.getByText('The private notes could not be loaded.').waitFor();
    expect(await page.getByText('No sparks yet.').count()).toBe(0);
    await saveScreenshot(page, 'coach-client-activity-failed-phone');
    await page.getByRole('tab', { name: 'Rest Days' }).click();
    await page.getByText('The rest days could not be loaded.').waitFor();
    await saveScreenshot(page, 'coach-client-rest-days-failed-phone');
    expect(await page.getByText('Rest days appear once the client has finished onboarding.').count()).toBe(0);

    await page.unroute(clientParts);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('client-rest-days').waitFor();
    // Back on a tab, what failed there is asked for again.
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('No sparks yet.').waitFor();
    await page.getByText('No private notes yet.').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByText('Sparks per day').waitFor();
    await page.context().close();
  });

  it('says a check-in, a nudge draft or a Day in the Life could not be loaded, and loads it on "Try again"', async () => {
    // Three days into the cycle without a spark: slipping, so the row offers a drafted nudge.
    const { email, userId } = await createClient('Walk after lunch');
    await db.query(`UPDATE progress.user_progress SET evolution_start_date = current_date - 3, evolution_end_date = current_date + 87 WHERE user_id = $1`, [
      userId,
    ]);
    const { page } = await signedIn('coach');
    let serviceDown = true;
    await page.route(new RegExp(`/api/coach/clients/${userId}/(weekly-check-in|nudge-draft|ditl)$`), (route) =>
      serviceDown ? route.fulfill(unavailable) : route.continue(),
    );
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    const row = clientRow(page, email);
    const dialog = page.getByRole('dialog');
    const failsThenLoads = async (failure: string, screenshot: string, loaded: () => Promise<void>) => {
      await dialog.getByText(failure).waitFor();
      await saveScreenshot(page, screenshot);
      serviceDown = false;
      await dialog.getByRole('button', { name: 'Try again' }).click();
      await loaded();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      serviceDown = true;
    };

    await row.getByRole('button', { name: 'Friday check-in' }).click();
    await failsThenLoads('The check-in could not be loaded.', 'coach-check-in-failed-laptop', () =>
      dialog.getByRole('region', { name: "This week's sparks" }).waitFor(),
    );
    await row.getByRole('button', { name: 'Draft a nudge' }).click();
    await failsThenLoads('The draft could not be loaded.', 'coach-nudge-draft-failed-laptop', () => dialog.getByLabel('Your message').waitFor());
    await row.getByRole('button', { name: 'Manage Client' }).click();
    await dialog.getByRole('tab', { name: 'Day in the Life' }).click();
    await failsThenLoads('The Day in the Life could not be loaded.', 'coach-client-ditl-failed-laptop', () =>
      dialog.getByText('No Day in the Life yet.', { exact: false }).waitFor(),
    );
    await page.context().close();
  });
});

describe('finding leads', () => {
  it('narrows the list by a counter and by the search, and says when nothing matches rather than that there are no leads', async () => {
    const email = uniqueEmail('to-be-found');
    await submitLead(email);
    const { page } = await signedIn('coach', phoneViewport);
    await page.goto('/coach');
    await findLead(page, email);

    const rejected = page.getByRole('button', { name: /^Rejected/ });
    await rejected.click();
    expect(await rejected.getAttribute('aria-pressed')).toBe('true');
    await page.getByText('No leads match').waitFor();
    await page.getByText('Clear the search, and press the highlighted counter again, to see every lead.').waitFor();
    expect(await page.getByText('No leads yet').count()).toBe(0);
    await rejected.click();
    await leadRow(page, email).waitFor();

    await page.getByLabel('Search leads').fill(uniqueEmail('never-submitted'));
    await page.getByText('No leads match').waitFor();
    await page.getByText('Clear the search to see every lead.').waitFor();
    expect(await page.getByText('No leads yet').count()).toBe(0);
    await saveScreenshot(page, 'coach-leads-no-match-phone');
    await page.getByLabel('Search leads').fill('');
    await page.getByText('Submitted:').first().waitFor();
    await page.context().close();
  });

  it('asks the server once for a search typed key by key, after the typing pauses', async () => {
    const email = uniqueEmail('typed-slowly');
    await submitLead(email);
    const { page } = await signedIn('coach');
    await page.goto('/coach');
    await page.getByText('Submitted:').first().waitFor();
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/coach/leads' && url.searchParams.has('search')) searches.push(url.searchParams.get('search') ?? '');
    });
    const searched = searchAnswered(page, '/api/coach/leads', email);
    await page.getByLabel('Search leads').pressSequentially(email, { delay: 60 });
    await searched;
    await leadRow(page, email).waitFor();
    // Not once per key; a stall of the loaded test machine mid-typing may let one partial search through.
    expect(searches.at(-1)).toBe(email);
    expect(searches.length).toBeLessThanOrEqual(2);
    await page.context().close();
  });
});

describe('acting on leads', () => {
  it('approves a client lead after a confirmation that names the role: the invite goes out and the badge reads "User Created"', async () => {
    const email = uniqueEmail('approve-me');
    await submitLead(email);
    const { page, dialogs } = await signedIn('coach');
    await page.goto('/coach');
    const row = await findLead(page, email);
    await row.getByText('Pending Review').waitFor();
    await row.getByText('Client', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Approve & Send Magic Link' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve this lead?' });
    await confirm.getByText(`Approve ${email} as a client? They will get a magic link to begin their onboarding.`).waitFor();
    await confirm.getByRole('button', { name: 'Approve & Send Magic Link' }).click();
    await row.getByText('User Created').waitFor();
    expect(dialogs.some((message) => message.includes(email))).toBe(true);
    await waitForEmail((mail) => sentTo(email)(mail) && /sign-in link/i.test(mail.subject));
    await page.context().close();
  });

  it('shows a coach a coach lead with its badge, and approve disabled with the reason on phone and laptop', async () => {
    const email = uniqueEmail('wants-to-coach');
    await submitLead(email, 'coach');
    for (const [label, viewport] of screenSizes) {
      const { page } = await signedIn('coach', viewport);
      await page.goto('/coach');
      const row = await findLead(page, email);
      await row.getByText('Coach', { exact: true }).waitFor();
      const approve = row.getByRole('button', { name: 'Approve & Send Magic Link' });
      expect(await approve.isDisabled()).toBe(true);
      expect(await row.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
      const reason = 'Only an admin can approve or reject a coach application: coaches see every client’s photos and notes.';
      await row.getByText(reason).waitFor();
      const describedBy = await approve.getAttribute('aria-describedby');
      expect(describedBy).toBeTruthy();
      expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(reason);
      await saveScreenshot(page, `coach-lead-as-coach-${label}`);
      await page.context().close();
    }
  });

  it('lets an admin approve a coach lead after a confirmation that names the role', async () => {
    const email = uniqueEmail('approved-coach');
    await submitLead(email, 'coach');
    for (const [label, viewport] of screenSizes) {
      const { page, dialogs } = await signedIn('admin', viewport);
      await page.goto('/coach');
      const row = await findLead(page, email);
      await row.getByRole('button', { name: 'Approve & Send Magic Link' }).click();
      const confirm = page.getByRole('dialog', { name: 'Approve this lead?' });
      await confirm
        .getByText(`Approve ${email} as a coach? They will get a magic link to the Coach Dashboard, where coaches see every client’s photos and notes.`)
        .waitFor();
      await saveScreenshot(page, `coach-approve-confirm-${label}`);
      if (label === 'phone') {
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await row.getByText('Pending Review').waitFor();
      } else {
        await confirm.getByRole('button', { name: 'Approve & Send Magic Link' }).click();
        await row.getByText('User Created').waitFor();
        expect(dialogs.some((message) => message.includes(email))).toBe(true);
      }
      await page.context().close();
    }
    const [user] = (await db.query(`SELECT role FROM auth.users WHERE email = $1`, [email])).rows as { role: string }[];
    expect(user?.role).toBe('coach');
  });

  it('rejects a lead: the badge reads "Rejected" and the actions disappear', async () => {
    const email = uniqueEmail('reject-me');
    await submitLead(email);
    const { page } = await signedIn('coach');
    await page.goto('/coach');
    const row = await findLead(page, email);
    const releaseList = await holdBack(page, /\/api\/coach\/leads\?/, 'GET');
    const rejected = page.waitForResponse((response) => /\/api\/coach\/leads\/[^/]+\/reject$/.test(response.url()));
    await row.getByRole('button', { name: 'Reject' }).click();
    await rejected;
    // Until the list shows the new status, the old one's buttons must not invite a second action on the lead.
    expect(await row.getByRole('button', { name: 'Approve & Send Magic Link' }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    releaseList();
    await row.getByText('Rejected').waitFor();
    expect(await row.getByRole('button', { name: 'Approve & Send Magic Link' }).count()).toBe(0);
    await page.context().close();
  });

  it('resends the magic link of an approved lead that has no account yet', async () => {
    const email = uniqueEmail('resend-me');
    await db.query(`INSERT INTO leads.leads (id, email, role, approval_status) VALUES ($1, $2, 'client', 'approved')`, [randomUUID(), email]);
    const { page, dialogs } = await signedIn('coach');
    await page.goto('/coach');
    const row = await findLead(page, email);
    await row.getByText('Approved').waitFor();
    await row.getByRole('button', { name: 'Resend Magic Link' }).click();
    await waitForEmail((mail) => sentTo(email)(mail) && /sign-in link/i.test(mail.subject));
    await eventually(() => dialogs.some((message) => message.includes(email)), 5_000, 'a dialog naming the e-mail');
    await page.context().close();
  });

  it('validates and adds a client lead from the Clients tab', async () => {
    const { page, dialogs } = await signedIn('coach', phoneViewport);
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByRole('button', { name: 'Add Client Lead' }).click();
    await page.getByRole('button', { name: 'Add & Send Magic Link' }).click();
    await eventually(() => dialogs.includes('Please enter an email address'), 5_000, 'the dialog asking for an e-mail address');
    const email = uniqueEmail('added-by-coach');
    await page.getByRole('dialog').getByRole('textbox').first().fill(email);
    await page.getByRole('button', { name: 'Add & Send Magic Link' }).click();
    await waitForEmail((mail) => sentTo(email)(mail) && /sign-in link/i.test(mail.subject));
    await page.context().close();
  });
});

describe('managing a client', () => {
  it('edits the record and the client list shows the change', async () => {
    const { email } = await createClient('Run a half marathon by spring');
    const { page } = await signedIn('coach');
    await openManageClient(page, email);
    await page.getByRole('tab', { name: 'Edit Record' }).click();
    await page.getByLabel('Transformation goal').fill('Sleep eight hours a night');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Client record updated').waitFor();
    await page.keyboard.press('Escape');
    await clientRow(page, email).getByText('Sleep eight hours a night').waitFor();
    await page.context().close();
  });

  it('sends a pinned nudge that the client sees on their home', async () => {
    const { email } = await createClient('Read every evening');
    const { page } = await signedIn('coach');
    await openManageClient(page, email);
    await page.getByRole('tab', { name: 'Activity' }).click();
    const message = `Proud of your week! ${randomUUID().slice(0, 6)}`;
    await page.getByLabel('Nudge message').fill(message);
    await page.getByRole('button', { name: 'Send Nudge' }).click();
    await page.getByText('Nudge sent').waitFor();
    await page.context().close();

    const { page: clientPage } = await clientSignedIn(email);
    await clientPage.goto('/app');
    await clientPage.getByTestId('coach-note').getByText(message).waitFor();
    await clientPage.context().close();
  });
});

/** A client page signed in through the e-mailed link, past onboarding (the app's local flag set), and its access token. */
async function clientSignedIn(email: string): Promise<{ page: Page; accessToken: string }> {
  const { page, accessToken } = await signedInContext(browser(), email, { viewport: phoneViewport });
  await markOnboarded(page);
  return { page, accessToken };
}

/**
 * A client whose 4-day streak ended: real photo sparks captured through the API, moved back to 5…2 days
 * ago (no spark yesterday), with the goal and challenge they gave at onboarding.
 */
async function createSlippingClient(): Promise<{ email: string; clientPage: Page }> {
  const { email, userId } = await createClient('I want to run a half marathon by June');
  await db.query(`INSERT INTO progress.onboarding_data (user_id, data) VALUES ($1, $2)`, [
    userId,
    JSON.stringify({
      full_name: 'Maya Lopez',
      transformation_goal: 'I want to run a half marathon by June',
      biggest_challenge: 'Too tired after work to lace up',
    }),
  ]);
  const { page: clientPage, accessToken } = await clientSignedIn(email);
  const captions = ['Morning run, 5 km', 'Stretching after work', 'Meal prep Sunday', 'Intervals in the park'];
  for (const caption of captions) {
    const picture = await paintedPicture(clientPage, caption, { width: 480, height: 480 });
    const response = await captureSpark(baseUrl(), { authorization: `Bearer ${accessToken}` }, { bytes: picture, timeZone: 'UTC', note: caption });
    expect(response.status).toBe(201);
  }
  await db.query(
    `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM progress.sparks WHERE user_id = $1)
     UPDATE progress.sparks SET created_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - (6 - numbered.n) * interval '1 day' + interval '12 hours'
     FROM numbered WHERE sparks.id = numbered.id`,
    [userId],
  );
  await db.query(
    `UPDATE progress.user_progress SET time_zone = 'UTC', streak_count = 4, last_spark_date = (now() AT TIME ZONE 'UTC')::date - 2,
       evolution_start_date = (now() AT TIME ZONE 'UTC')::date - 12, evolution_end_date = (now() AT TIME ZONE 'UTC')::date + 78
     WHERE user_id = $1`,
    [userId],
  );
  return { email, clientPage };
}

describe('drafted nudges and the Friday check-in', () => {
  it('drafts a nudge for a slipping client that the coach edits and sends as a pinned note, which the client sees', async () => {
    const { email, clientPage } = await createSlippingClient();
    const { page } = await signedIn('coach');
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByLabel('Sort clients').selectOption('attention');
    const row = clientRow(page, email);
    await row.getByText('Streak broken: no spark yesterday').waitFor();
    await row.getByRole('button', { name: 'Draft a nudge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nudge Maya Lopez' });
    const draft = dialog.getByLabel('Your message');
    await waitForValue(draft, /your 4-day streak paused yesterday/);
    const drafted = await draft.inputValue();
    expect(drafted).toMatch(/^Hi Maya, your 4-day streak paused yesterday after your spark on \w+day\./);
    expect(drafted).toContain('“run a half marathon by June”');
    expect(drafted).toContain('“Too tired after work to lace up”');
    await dialog.getByText('4-day streak ended').waitFor();
    await dialog.getByText('Last spark 2 days ago').waitFor();
    await saveScreenshot(page, 'coach-nudge-draft-laptop');
    // Nothing reaches the client until the coach clicks Send as note.
    expect((await db.query(`SELECT 1 FROM progress.coach_notes n JOIN progress.user_progress p USING (user_id) WHERE p.email = $1`, [email])).rowCount).toBe(0);
    const edited = `${drafted} Let's talk on Friday.`;
    await draft.fill(edited);
    expect(await dialog.getByLabel('Pin').isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Send as note' }).click();
    await page.getByText('Note sent').waitFor();
    await page.context().close();

    await clientPage.goto('/app');
    await clientPage.getByTestId('coach-note').getByText("Let's talk on Friday.", { exact: false }).waitFor();
    expect(await clientPage.getByTestId('coach-note').innerText()).toContain('your 4-day streak paused yesterday');
    await clientPage.context().close();
  });

  it("shows the Friday check-in with the week's sparks as thumbnails, what slipped and what went well, on phone and laptop", async () => {
    const { email, clientPage } = await createSlippingClient();
    await clientPage.context().close();
    for (const [label, viewport] of screenSizes) {
      const { page } = await signedIn('coach', viewport);
      await page.goto('/coach');
      await page.getByRole('tab', { name: /^Clients/ }).click();
      await page.getByLabel('Sort clients').selectOption('attention');
      if (label === 'phone') await saveScreenshot(page, 'coach-clients-needs-attention-phone');
      await clientRow(page, email).getByRole('button', { name: 'Friday check-in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Friday check-in: Maya Lopez' });
      const thumbnails = dialog.getByRole('region', { name: "This week's sparks" }).getByRole('img');
      await thumbnails.nth(3).waitFor();
      expect(await thumbnails.count()).toBe(4);
      expect(await thumbnails.first().getAttribute('alt')).toBe('Intervals in the park');
      await waitUntilLoaded(thumbnails.first());
      await dialog.getByText('What slipped', { exact: true }).waitFor();
      await dialog.getByText(/^No spark on \w{3}, \w{3}$/).waitFor();
      await dialog.getByText(/^4 days in a row/).waitFor();
      const summary = await dialog.getByLabel('Check-in summary').inputValue();
      expect(summary).toContain("Hi Maya, here's your week: 4 sparks on 4 days");
      await saveScreenshot(page, `coach-friday-check-in-${label}`);
      if (label === 'phone') {
        await dialog.getByRole('button', { name: 'Close' }).click();
        await clientRow(page, email).getByRole('button', { name: 'Draft a nudge' }).click();
        await waitForValue(page.getByRole('dialog').getByLabel('Your message'), /streak/);
        await saveScreenshot(page, 'coach-nudge-draft-phone');
      }
      await page.context().close();
    }
  });
});

async function waitForValue(field: ReturnType<Page['getByLabel']>, pattern: RegExp): Promise<void> {
  await field.waitFor();
  for (let i = 0; i < 100 && !pattern.test(await field.inputValue()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await field.inputValue()).toMatch(pattern);
}

async function waitUntilLoaded(image: ReturnType<Page['getByRole']>): Promise<void> {
  await eventually(() => image.evaluate((element) => (element as { naturalWidth: number }).naturalWidth > 0), 10_000, 'the image to load');
}

describe('the Audit Log tab (admins)', () => {
  it('shows who did what to which target, newest first, filters by action and loads more', async () => {
    const approvedEmail = uniqueEmail('audited-approval');
    const rejectedEmail = uniqueEmail('audited-rejection');
    await submitLead(approvedEmail);
    await submitLead(rejectedEmail);
    const coachSession = await signedIn('coach');
    await coachSession.page.goto('/coach');
    await (await findLead(coachSession.page, rejectedEmail)).getByRole('button', { name: 'Reject' }).click();
    await leadRow(coachSession.page, rejectedEmail).getByText('Rejected').waitFor();
    await coachSession.page.context().close();

    for (const [label, viewport] of screenSizes) {
      const { page } = await signedIn('admin', viewport);
      await page.goto('/coach');
      if (label === 'laptop') {
        const row = await findLead(page, approvedEmail);
        await row.getByRole('button', { name: 'Approve & Send Magic Link' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Approve & Send Magic Link' }).click();
        await row.getByText('User Created').waitFor();
      }
      await page.getByRole('tab', { name: 'Audit Log' }).click();
      const events = page.getByTestId('audit-event');
      await events.first().waitFor();
      const rejection = events.filter({ hasText: rejectedEmail });
      await rejection.getByText('Rejected a lead').waitFor();
      await rejection.getByText(/^e2e-dashboard-coach-/).waitFor();
      if (label === 'laptop') {
        await events.filter({ hasText: approvedEmail }).getByText('Approved a lead').waitFor();
        // Newest first: the approval, made after the rejection, is above it (other tests' actions may be above both).
        const listed = await events.allTextContents();
        const above = (email: string) => listed.findIndex((text) => text.includes(email));
        expect(above(approvedEmail)).toBeLessThan(above(rejectedEmail));
      }
      await saveScreenshot(page, `coach-audit-log-${label}`);

      await page.getByLabel('Action').selectOption({ label: 'Rejected a lead' });
      await events.first().getByText('Rejected a lead').waitFor();
      expect(await events.filter({ hasNotText: 'Rejected a lead' }).count()).toBe(0);

      // Filters that match nothing say so, and never claim the log itself is empty.
      await page.getByLabel('By (e-mail)').fill(uniqueEmail('did-nothing'));
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No actions match these filters').waitFor();
      expect(await page.getByText('No actions recorded yet').count()).toBe(0);
      if (label === 'phone') await saveScreenshot(page, 'coach-audit-log-no-match-phone');
      await page.context().close();
    }
  });

  it('pages the log with "Load more"', async () => {
    // More events than one page, written straight into the log as the gateway records them.
    await db.query(
      `INSERT INTO auth.audit_events (id, correlation_id, at, actor_id, actor_email, actor_role, action, target_type, target_id, client_ip, outcome)
       SELECT gen_random_uuid(), 'paging-' || n, now(), $1, 'paging-coach@example.com', 'coach', 'client.nudge', 'client', gen_random_uuid()::text, '192.0.2.1', 'succeeded'
       FROM generate_series(1, 26) AS n`,
      [randomUUID()],
    );
    const { page } = await signedIn('admin');
    await page.goto('/coach');
    await page.getByRole('tab', { name: 'Audit Log' }).click();
    const events = page.getByTestId('audit-event');
    await events.nth(24).waitFor();
    expect(await events.count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await events.nth(25).waitFor();
    await page.context().close();
  });
});

describe('screenshots for review', () => {
  for (const [label, viewport] of screenSizes) {
    it(`captures every /coach view at ${label} size`, async () => {
      const { email } = await createClient('Meditate ten minutes every morning');
      await submitLead(uniqueEmail('screenshot-lead'));
      const { page } = await signedIn('coach', viewport);
      await page.goto('/coach');
      await page.getByTestId('lead-row').first().waitFor();
      await saveScreenshot(page, `coach-leads-${label}`);
      await page.getByRole('tab', { name: /^Clients/ }).click();
      await clientRow(page, email).waitFor();
      await saveScreenshot(page, `coach-clients-${label}`);
      await clientRow(page, email).getByRole('button', { name: 'Manage Client' }).click();
      await page.getByText('Days left').waitFor();
      await saveScreenshot(page, `coach-manage-client-${label}`);
      await page.getByRole('tab', { name: 'Edit Record' }).click();
      await saveScreenshot(page, `coach-manage-client-edit-${label}`);
      await page.getByRole('tab', { name: 'Activity' }).click();
      await saveScreenshot(page, `coach-manage-client-activity-${label}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Add Client Lead' }).click();
      await page.getByRole('dialog').waitFor();
      await saveScreenshot(page, `coach-add-client-lead-${label}`);
      await page.context().close();
    });
  }
});
