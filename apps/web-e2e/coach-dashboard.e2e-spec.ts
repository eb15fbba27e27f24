import { randomUUID } from 'node:crypto';
import { eventually } from '@spark/testing';
import { e2eDatabase, uniqueEmail, useBrowser } from './support/auth-fixtures';
import {
  baseUrl,
  holdBack,
  newPage,
  phoneViewport,
  saveScreenshot,
  screenSizes,
  searchAnswered,
  serviceUnavailable,
  shownInPagedList,
  typeThenPause,
} from './support/browser';
import { clientRow, createClient, findLead, leadRow, signedIn, submitLead } from './support/coach-fixtures';
import { sentTo, waitForEmail } from './support/mailbox';

// The leads side of /coach, its guard and the admins' audit log; the clients side is in coach-clients.e2e-spec.ts.
jest.setTimeout(120_000);

const browser = useBrowser();
const db = e2eDatabase();

describe('the coach dashboard guard', () => {
  it('sends a visitor without a session to /interest', async () => {
    const page = await newPage(browser());
    await page.goto('/coach');
    await page.waitForURL('**/interest');
    await page.context().close();
  });

  it('shows a signed-in client "Access Denied" with the spec’s text and Go Back', async () => {
    const { page } = await signedIn(browser(), 'client');
    await page.goto('/coach');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText("You don't have permission to access the Coach Dashboard.").waitFor();
    await page.getByRole('button', { name: 'Go Back' }).waitFor();
    await page.context().close();
  });

  it('shows "Verifying access..." while the server checks the role', async () => {
    const { page } = await signedIn(browser(), 'coach');
    const releaseOverview = await holdBack(page, /\/api\/coach\/overview$/);
    await page.goto('/coach');
    await page.getByText('Verifying access...').waitFor();
    releaseOverview();
    await page.getByText('Lead Management').waitFor();
    await page.context().close();
  });

  it('lets a coach in, with the lead count in the header and no admin tabs', async () => {
    const { page } = await signedIn(browser(), 'coach');
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
  it('says the leads and the clients could not be loaded, never that there are none, and loads them on "Try again"', async () => {
    await submitLead(uniqueEmail('listed-after-retry'));
    const { page } = await signedIn(browser(), 'coach', phoneViewport);
    const leads = /\/api\/coach\/leads\?/;
    await page.route(leads, (route) => route.fulfill(serviceUnavailable));
    await page.goto('/coach');
    await page.getByText('The leads could not be loaded.').waitFor();
    expect(await page.getByText('No leads yet').count()).toBe(0);
    await saveScreenshot(page, 'coach-leads-failed-phone');
    await page.unroute(leads);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Submitted:').first().waitFor();

    const clients = /\/api\/coach\/clients\?/;
    await page.route(clients, (route) => route.fulfill(serviceUnavailable));
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByText('The clients could not be loaded.').waitFor();
    expect(await page.getByText('No active clients yet').count()).toBe(0);
    await saveScreenshot(page, 'coach-clients-failed-phone');
    await page.unroute(clients);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('The clients could not be loaded.').waitFor({ state: 'detached' });
    await page.context().close();
  });
});

describe('finding leads', () => {
  it('narrows the list by a counter and by the search, and says when nothing matches rather than that there are no leads', async () => {
    const email = uniqueEmail('to-be-found');
    await submitLead(email);
    const { page } = await signedIn(browser(), 'coach', phoneViewport);
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
    const { page } = await signedIn(browser(), 'coach');
    await page.clock.install();
    await page.goto('/coach');
    await page.getByText('Submitted:').first().waitFor();
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/coach/leads' && url.searchParams.has('search')) searches.push(url.searchParams.get('search') ?? '');
    });
    const searched = searchAnswered(page, '/api/coach/leads', email);
    await typeThenPause(page, page.getByLabel('Search leads'), email);
    await searched;
    await leadRow(page, email).waitFor();
    // Not once per key: only the pause after the last key sends a search.
    expect(searches).toEqual([email]);
    await page.context().close();
  });
});

describe('acting on leads', () => {
  it('approves a client lead after a confirmation that names the role: the invite goes out and the badge reads "User Created"', async () => {
    const email = uniqueEmail('approve-me');
    await submitLead(email);
    const { page, dialogs } = await signedIn(browser(), 'coach');
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
      const { page } = await signedIn(browser(), 'coach', viewport);
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
      const { page, dialogs } = await signedIn(browser(), 'admin', viewport);
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
    const { page } = await signedIn(browser(), 'coach');
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
    const { page, dialogs } = await signedIn(browser(), 'coach');
    await page.goto('/coach');
    const row = await findLead(page, email);
    await row.getByText('Approved').waitFor();
    await row.getByRole('button', { name: 'Resend Magic Link' }).click();
    await waitForEmail((mail) => sentTo(email)(mail) && /sign-in link/i.test(mail.subject));
    await eventually(() => dialogs.some((message) => message.includes(email)), 5_000, 'a dialog naming the e-mail');
    await page.context().close();
  });

  it('validates and adds a client lead from the Clients tab', async () => {
    const { page, dialogs } = await signedIn(browser(), 'coach', phoneViewport);
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

  it('tells a coach who has invited sixty people within the hour when to try again', async () => {
    const { page, dialogs, accessToken } = await signedIn(browser(), 'coach', phoneViewport);
    for (let invited = 0; invited < 60; invited++) {
      const added = await fetch(`${baseUrl()}/api/coach/leads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', origin: baseUrl() },
        body: JSON.stringify({ email: uniqueEmail(`cohort-${invited}`) }),
      });
      expect(added.status).toBe(201);
    }
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Clients/ }).click();
    await page.getByRole('button', { name: 'Add Client Lead' }).click();
    await page.getByRole('dialog').getByRole('textbox').first().fill(uniqueEmail('one-too-many'));
    await page.getByRole('button', { name: 'Add & Send Magic Link' }).click();
    await eventually(
      () => dialogs.some((message) => /^Too many requests\. Please try again in \d+ minutes\.$/.test(message)),
      10_000,
      'the dialog saying when to try again',
    );
    await page.context().close();
  });
});

describe('the Audit Log tab (admins)', () => {
  it('shows who did what to which target, newest first, filters by action and loads more', async () => {
    const approvedEmail = uniqueEmail('audited-approval');
    const rejectedEmail = uniqueEmail('audited-rejection');
    await submitLead(approvedEmail);
    await submitLead(rejectedEmail);
    const coachSession = await signedIn(browser(), 'coach');
    await coachSession.page.goto('/coach');
    await (await findLead(coachSession.page, rejectedEmail)).getByRole('button', { name: 'Reject' }).click();
    await leadRow(coachSession.page, rejectedEmail).getByText('Rejected').waitFor();
    await coachSession.page.context().close();

    for (const [label, viewport] of screenSizes) {
      const { page } = await signedIn(browser(), 'admin', viewport);
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
    const { page } = await signedIn(browser(), 'admin');
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
      const { page } = await signedIn(browser(), 'coach', viewport);
      await page.goto('/coach');
      await page.getByTestId('lead-row').first().waitFor();
      await saveScreenshot(page, `coach-leads-${label}`);
      await page.getByRole('tab', { name: /^Clients/ }).click();
      await shownInPagedList(page, clientRow(page, email));
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
