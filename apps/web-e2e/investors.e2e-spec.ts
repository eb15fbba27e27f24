import type { Locator, Page } from 'playwright-core';
import { createUser, e2eDatabase, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import {
  dwellMs,
  holdBack,
  laptopViewport,
  loseFirstAnswer,
  newPage,
  paintedPicture,
  phoneViewport,
  saveScreenshot,
  screenSizes,
  serviceUnavailable,
  startDwellTimer,
  waitUntilTrue,
} from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';

jest.setTimeout(180_000);

const browser = useBrowser();
const db = e2eDatabase();

type Viewport = { width: number; height: number };

const visitor = (viewport: Viewport = laptopViewport) => newPage(browser(), { viewport });

/** The signed-in admin on /coach's Investors tab. */
async function investorsTab(viewport: Viewport = laptopViewport): Promise<Page> {
  const email = uniqueEmail('investors-admin');
  await createUser(email, 'admin');
  const { page } = await signedInContext(browser(), email, { viewport, permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto('/coach');
  await page.getByRole('tab', { name: /^Investors \(\d+\)$/ }).click();
  await page.getByText('Investor Communications').waitFor();
  return page;
}

const rowOf = (page: Page, email: string): Locator => page.getByTestId('investor-row').filter({ has: page.getByLabel(`Select ${email}`) });

async function addInvestor(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Add Investor' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Investor email').fill(email);
  await dialog.getByRole('button', { name: 'Add Investor' }).click();
  await page.getByLabel(`Select ${email}`).waitFor();
}

async function codeOf(row: Locator): Promise<string> {
  const code = /SPARK(-[0-9A-Z]{4}){5}/.exec(await row.innerText())?.[0];
  if (!code) throw new Error(`no access code in the row:\n${await row.innerText()}`);
  return code;
}

describe('/donate', () => {
  it('stores a deck request without a code and says what happens next', async () => {
    const page = await visitor();
    await page.goto('/donate');
    await page.getByPlaceholder('you@fund.com').fill(uniqueEmail('deck-request'));
    await page.getByRole('button', { name: 'Request Full Deck' }).click();
    await page.getByText('We review every request personally').waitFor();
    await page.context().close();
  });

  it('refuses a wrong access code with "Access Denied" and the spec’s message', async () => {
    const page = await visitor();
    await page.goto('/donate');
    await page.getByPlaceholder('you@fund.com').fill(uniqueEmail('deck-wrong-code'));
    for (const wrongCode of ['SPARK-WRONG', 'SPARK-0000-0000-0000-0000-0000']) {
      await page.getByPlaceholder('SPARK-XXXX-XXXX-XXXX-XXXX-XXXX').fill(wrongCode);
      await page.getByRole('button', { name: 'Download Deck' }).click();
      const denial = page.getByRole('alert').filter({ hasText: 'Access Denied' });
      await denial.getByText('Invalid access code. Please check your code and try again.').waitFor();
    }
    await page.context().close();
  });

  it('still shows the round and the deck request form when the page data cannot be loaded', async () => {
    const page = await visitor();
    await page.route('**/api/investors/donate-page', (route) => route.fulfill(serviceUnavailable));
    await page.goto('/donate');
    await page.getByRole('heading', { level: 1, name: 'Back the habit platform built on research.' }).waitFor();
    await page.getByText('The deck preview is on its way. Request the full deck to be notified.', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Use of funds' }).waitFor();
    expect(await page.getByRole('link', { name: /^Commit \$/ }).count()).toBe(0);
    await page.getByText('The commitment levels could not be loaded. Please try again later.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Request Full Deck' }).waitFor();
    await saveScreenshot(page, 'donate-without-data-laptop');
    await page.context().close();
  });

  it('early access: "Keep me posted" confirms, then takes the visitor home after 1.5 s', async () => {
    const page = await visitor(phoneViewport);
    await page.goto('/donate?early-access');
    // The form arrives prerendered with its button disabled: wait until React has taken over, as a visitor's tap needs.
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    const email = page.getByLabel('Email');
    await saveScreenshot(page, 'donate-early-access-phone');
    await email.fill(uniqueEmail('early-access'));
    // Timed from the form's own confirmation, which renders with the state that starts the redirect's timer (the toast
    // library shows its toast a moment later).
    await startDwellTimer(page, "You're on the list. Taking you home...");
    await page.getByRole('button', { name: 'Keep me posted' }).click();
    await page.getByText("Thanks! We'll keep you posted.").waitFor();
    await page.getByText("You're on the list. Taking you home...").waitFor();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 5000 });
    expect(await dwellMs(page)).toBeGreaterThanOrEqual(1_400);
    await page.context().close();
  });
});

describe('the Investors tab (admins)', () => {
  it('adds investors, generates, copies and sends codes, and e-mails a confirmed campaign to the selection', async () => {
    const page = await investorsTab();
    const first = uniqueEmail('investor-a');
    const second = uniqueEmail('investor-b');

    // Add Investor, its pending label, and the duplicate refusal.
    const releaseAdd = await holdBack(page, /\/api\/investors$/, 'POST');
    await page.getByRole('button', { name: 'Add Investor' }).click();
    await page.getByRole('dialog').getByLabel('Investor email').fill(first);
    await page.getByRole('dialog').getByRole('button', { name: 'Add Investor' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Adding...' }).waitFor();
    releaseAdd();
    await page.getByLabel(`Select ${first}`).waitFor();
    await page.getByRole('button', { name: 'Add Investor' }).click();
    await page.getByRole('dialog').getByLabel('Investor email').fill(first);
    await page.getByRole('dialog').getByRole('button', { name: 'Add Investor' }).click();
    await page.getByRole('dialog').getByText('Failed to create investor. Email may already exist.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await addInvestor(page, second);
    await page.unrouteAll();

    // Generate Code, then Copy Code puts it on the clipboard.
    const row = rowOf(page, first);
    const releaseGenerate = await holdBack(page, /\/access-code$/, 'POST');
    await row.getByRole('button', { name: 'Generate Code' }).click();
    await row.getByRole('button', { name: 'Generating...' }).waitFor();
    releaseGenerate();
    await row.getByRole('button', { name: 'Copy Code' }).click();
    await page.unrouteAll();
    const code = await codeOf(row);
    await page.getByText('Access code copied').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(code);
    await saveScreenshot(page, 'investors-tab-laptop');

    // Send Code opens the composer prefilled for that investor alone.
    await row.getByRole('button', { name: 'Send Code' }).click();
    const composer = page.getByRole('dialog');
    await composer.getByText(`To: ${first}`).waitFor();
    expect(await composer.getByLabel('Subject').inputValue()).toBe('Your access code for the Spark investor deck');
    expect(await composer.getByLabel('Message').inputValue()).toContain(code);
    await composer.getByRole('button', { name: 'Cancel' }).click();

    // Select all, Clear Selection, and Compose disabled without a selection.
    const total = Number(/(\d+) investors/.exec(await page.getByText(/^\d+ investors$/).innerText())?.[1]);
    await page.getByLabel('Select all').check();
    await page.getByRole('button', { name: `Compose Email (${total})` }).waitFor();
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    expect(await page.getByRole('button', { name: 'Compose Email (0)' }).isDisabled()).toBe(true);

    // The composer: validation, the confirm step, then both investors receive it.
    await page.getByLabel(`Select ${first}`).check();
    await page.getByLabel(`Select ${second}`).check();
    await page.getByRole('button', { name: 'Compose Email (2)' }).click();
    await composer.getByRole('button', { name: 'Review' }).click();
    await composer.getByText('Subject required').waitFor();
    await composer.getByText('Message required').waitFor();
    await composer.getByLabel('Subject').fill('Spark update');
    await composer.getByLabel('Message').fill('Our first cohort finished its 90-day evolution.');
    await saveScreenshot(page, 'investors-composer-laptop');
    await composer.getByRole('button', { name: 'Review' }).click();
    await composer.getByText('Send Spark update to 2 investors?').waitFor();
    await saveScreenshot(page, 'investors-confirm-laptop');
    // The first send goes out, but its answer is lost: the admin is told it failed and sends again.
    await loseFirstAnswer(page, /\/api\/investors\/emails$/, 'POST');
    await composer.getByRole('button', { name: 'Confirm & Send' }).click();
    await page.getByText('Failed to send emails').waitFor();
    await saveScreenshot(page, 'investors-send-failed-laptop');
    await composer.getByRole('button', { name: 'Review' }).click();
    await composer.getByRole('button', { name: 'Confirm & Send' }).click();

    for (const investor of [first, second]) {
      const mail = await waitForEmail((candidate) => sentTo(investor)(candidate) && candidate.subject === 'Spark update');
      expect(mail.text).toContain('90-day evolution');
    }
    await page.getByRole('button', { name: 'Compose Email (0)' }).waitFor();
    await page.getByText('Sent 2 emails').waitFor();
    await page.unrouteAll();
    // The second send was the same campaign: each investor has it once.
    const copies = await db.query(`SELECT count(*)::int AS n FROM investor.campaign_deliveries WHERE email = ANY($1)`, [[first, second]]);
    expect(copies.rows[0].n).toBe(2);
    await rowOf(page, first)
      .getByText(/Last email: (?!Never)/)
      .waitFor();
    await page.context().close();
  });

  it('says the investors could not be loaded, never that there are none, and loads them on "Try again"', async () => {
    const context = (await investorsTab()).context();
    const list = /\/api\/investors\?/;
    await context.route(list, (route) => route.fulfill(serviceUnavailable));
    const page = await context.newPage();
    await page.goto('/coach');
    await page.getByRole('tab', { name: /^Investors/ }).click();
    await page.getByText('Investors could not be loaded.').waitFor();
    expect(await page.getByText(/^No investors yet/).count()).toBe(0);
    expect(await page.getByText(/^\d+ investors$/).count()).toBe(0);
    await saveScreenshot(page, 'investors-failed-laptop');
    await context.unroute(list);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Investors could not be loaded.').waitFor({ state: 'detached' });
    await context.close();
  });

  it('shows investors a page at a time with "Load more", and "Select all" selects every one, not only those shown', async () => {
    // More investors than a page holds, older than any other test's, so the oldest is always on a later page.
    const oldest = uniqueEmail('paged-investor-oldest');
    await db.query(
      `INSERT INTO investor.investors (id, email, created_at)
       SELECT gen_random_uuid(), CASE WHEN n = 101 THEN $1 ELSE 'e2e-paged-investor-' || n || '-' || $2 || '@example.com' END,
              now() - interval '30 days' - n * interval '1 second'
       FROM generate_series(1, 101) AS n`,
      [oldest, oldest.split('@')[0]],
    );
    const page = await investorsTab();
    await page.getByTestId('investor-row').nth(99).waitFor();
    expect(await rowOf(page, oldest).count()).toBe(0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await rowOf(page, oldest).waitFor();

    await page.reload();
    await page.getByRole('tab', { name: /^Investors \(\d+\)$/ }).click();
    const total = Number(/(\d+) investors/.exec(await page.getByText(/^\d+ investors$/).innerText())?.[1]);
    expect(total).toBeGreaterThan(100);
    // The box ticks at once and waits, disabled, for the pages not shown yet.
    const releaseNextPage = await holdBack(page, /\/api\/investors\?.*cursor=/);
    await page.getByLabel('Select all').check();
    expect(await page.getByLabel('Select all').isDisabled()).toBe(true);
    releaseNextPage();
    await page.getByRole('button', { name: `Compose Email (${total})` }).waitFor();
    expect(await rowOf(page, oldest).getByRole('checkbox').isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await page.context().close();
  });

  it('hands out the deck for a valid code, and shows the uploaded preview on /donate', async () => {
    const admin = await investorsTab();
    const [full, preview] = await admin.locator('input[type=file]').all();
    if (!full || !preview) throw new Error('the deck upload inputs are missing');
    await full.setInputFiles({ name: 'deck.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% Spark investor deck\n%%EOF\n') });
    await admin.getByText('Deck uploaded').first().waitFor();
    await preview.setInputFiles({ name: 'preview.png', mimeType: 'image/png', buffer: await paintedPicture(admin, 'Spark pre-seed deck') });
    await admin.getByText('Deck uploaded').nth(1).waitFor();

    const investor = uniqueEmail('investor-with-code');
    await addInvestor(admin, investor);
    await rowOf(admin, investor).getByRole('button', { name: 'Generate Code' }).click();
    await rowOf(admin, investor).getByRole('button', { name: 'Copy Code' }).waitFor();
    const code = await codeOf(rowOf(admin, investor));

    const page = await visitor();
    await page.goto('/donate');
    await page.getByAltText('The first pages of the Spark investor deck').waitFor();
    await waitUntilTrue(page, `document.querySelector('img[alt^="The first pages"]')?.naturalWidth > 0`);
    // The code belongs to the investor's e-mail: with another address it is refused like a wrong code.
    await page.getByPlaceholder('you@fund.com').fill(uniqueEmail('not-the-investor'));
    await page.getByPlaceholder('SPARK-XXXX-XXXX-XXXX-XXXX-XXXX').fill(code);
    await page.getByRole('button', { name: 'Download Deck' }).click();
    await page.getByRole('alert').filter({ hasText: 'Access Denied' }).getByText('Invalid access code. Please check your code and try again.').waitFor();
    await page.getByPlaceholder('you@fund.com').fill(investor);
    await page.getByRole('button', { name: 'Download Deck' }).click();
    const download = page.getByRole('link', { name: 'Download the deck' });
    await download.waitFor();
    const deck = await page.request.get((await download.getAttribute('href')) ?? '');
    expect((await deck.body()).toString('latin1')).toContain('Spark investor deck');
    await saveScreenshot(page, 'donate-granted-laptop');

    await admin.reload();
    await admin.getByRole('tab', { name: /^Investors/ }).click();
    await rowOf(admin, investor).getByText('(Used 1 x)').waitFor();
    await admin.context().close();
    await page.context().close();
  });
});

describe('access codes: shown once, then only their state', () => {
  it('shows a new code once with Copy and Send Code, then "Code issued" with its expiry; Reissue Code replaces it', async () => {
    const page = await investorsTab();
    const investor = uniqueEmail('investor-reissue');
    await addInvestor(page, investor);
    const row = rowOf(page, investor);
    await row.getByRole('button', { name: 'Generate Code' }).click();
    await row.getByText('Copy it or send it now: it is shown only once.').waitFor();
    const first = await codeOf(row);
    await row.getByRole('button', { name: 'Send Code' }).waitFor();

    // After a reload the code is gone for good; the row tells its state.
    await page.reload();
    await page.getByRole('tab', { name: /^Investors/ }).click();
    await row.getByText(/^Code issued .+ · Expires .+/).waitFor();
    expect(await row.innerText()).not.toMatch(/SPARK(-[0-9A-Z]{4}){5}/);
    expect(await row.getByRole('button', { name: 'Copy Code' }).count()).toBe(0);
    await saveScreenshot(page, 'investors-code-state-laptop');

    await row.getByRole('button', { name: 'Reissue Code' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reissue access code?' });
    await confirm.getByText(`The current code for ${investor} stops working at once. The new code works for 30 days.`).waitFor();
    await saveScreenshot(page, 'investors-reissue-confirm-laptop');
    await confirm.getByRole('button', { name: 'Reissue Code' }).click();
    await row.getByText('Copy it or send it now: it is shown only once.').waitFor();
    const second = await codeOf(row);
    expect(second).not.toBe(first);
    await row.getByRole('button', { name: 'Send Code' }).click();
    expect(await page.getByRole('dialog').getByLabel('Message').inputValue()).toContain(second);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    const visitorPage = await visitor();
    await visitorPage.goto('/donate');
    await visitorPage.getByPlaceholder('you@fund.com').fill(investor);
    await visitorPage.getByPlaceholder('SPARK-XXXX-XXXX-XXXX-XXXX-XXXX').fill(first);
    await visitorPage.getByRole('button', { name: 'Download Deck' }).click();
    await visitorPage.getByRole('alert').filter({ hasText: 'Access Denied' }).getByText('Invalid access code. Please check your code and try again.').waitFor();
    await visitorPage.context().close();
    await page.context().close();
  });
});

describe('screens (reviewed by eye)', () => {
  it('/donate, the Investors tab and the composer on a phone and a laptop', async () => {
    for (const [suffix, viewport] of screenSizes) {
      const page = await visitor(viewport);
      await page.goto('/donate');
      await page.getByRole('heading', { name: 'Commitment levels' }).waitFor();
      await page.getByRole('link', { name: 'Commit $1,000' }).waitFor();
      expect(await page.getByRole('link', { name: 'Commit $100' }).getAttribute('href')).toMatch(/\/donate#commitment$/);
      await saveScreenshot(page, `donate-${suffix}`);
      await page.context().close();

      const admin = await investorsTab(viewport);
      await admin.getByTestId('investor-row').first().waitFor();
      await saveScreenshot(admin, `investors-tab-${suffix}`);
      const investor = uniqueEmail(`investor-code-once-${suffix}`);
      await addInvestor(admin, investor);
      await rowOf(admin, investor).getByRole('button', { name: 'Generate Code' }).click();
      await rowOf(admin, investor).getByText('Copy it or send it now: it is shown only once.').waitFor();
      await saveScreenshot(admin, `investors-code-once-${suffix}`);
      await admin.getByTestId('investor-row').first().getByRole('checkbox').check();
      await admin.getByRole('button', { name: 'Compose Email (1)' }).click();
      await admin.getByRole('dialog').waitFor();
      await saveScreenshot(admin, `investors-composer-${suffix}`);
      await admin.context().close();
    }
  });
});
