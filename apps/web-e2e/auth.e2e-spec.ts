import type { BrowserContext, Page } from 'playwright-core';
import { baseUrl, dwellMs, holdBack, laptopViewport, phoneViewport, saveScreenshot, screenSizes, startDwellTimer, visitorContext } from './support/browser';
import { createUser, requestSignIn, signInEmail, uniqueEmail, useBrowser } from './support/auth-fixtures';

jest.setTimeout(90_000);

const browser = useBrowser();

async function openPage(viewport: { width: number; height: number } = laptopViewport): Promise<{ context: BrowserContext; page: Page }> {
  const context = await visitorContext(browser(), { viewport });
  return { context, page: await context.newPage() };
}

const isAt = (pathname: string) => (url: URL) => url.pathname === pathname;
// Strings, not functions: this project compiles without the DOM library.
const stored = (page: Page, key: string) => page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);
const setStored = (page: Page, entries: Record<string, string>) =>
  page.evaluate(`Object.entries(${JSON.stringify(entries)}).forEach(([key, value]) => localStorage.setItem(key, value))`);

const specKeys = [
  'spark_onboarding_complete',
  'spark_user_email',
  'spark_user_goal',
  'spark_lead_email',
  'spark_user_role',
  'spark_landing_role_preference',
  'spark_magic_link_auth',
  'spark_coach_approved',
];

/** The e-mailed link's address: next/approved in the query, the token in the fragment. */
const linkPath = (token: string, query = '') => `/magic-link-auth${query ? `?${query}` : ''}#token=${token}`;

/** Opens a link, confirms whose it is, and waits for the success state. */
async function openLink(page: Page, email: string, token: string, query: string, welcome: string): Promise<void> {
  await page.goto(linkPath(token, query));
  await page.getByRole('button', { name: `Continue as ${email}` }).click();
  await page.getByRole('heading', { name: 'Welcome to Spark' }).waitFor();
  await page.getByText(welcome, { exact: true }).waitFor();
}

describe('/signin', () => {
  it('shows the product heading, keeps Send Magic Link disabled while blank, then sends a link', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('signin');
    await createUser(email, 'client');
    await page.goto('/signin?product=spark');
    await page.getByRole('heading', { name: 'Access The Spark' }).waitFor();
    const send = page.getByRole('button', { name: 'Send Magic Link' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Email address').fill('   ');
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Email address').blur();
    await page.getByText('Please enter your email address', { exact: true }).waitFor();

    // The request is held until the busy state has been seen.
    const releaseSend = await holdBack(page, /\/api\/auth\/magic-link$/, 'POST');
    await page.getByLabel('Email address').fill(email);
    await send.click();
    await page.getByRole('button', { name: 'Sending link...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sending link...' }).isDisabled()).toBe(true);
    releaseSend();
    await page.getByText('Magic link sent!', { exact: true }).waitFor();
    await page.getByText('Check your email for a secure sign-in link', { exact: true }).waitFor();
    expect(await page.getByLabel('Email address').inputValue()).toBe('');
    expect((await signInEmail(email)).token).toMatch(/^[\w-]{20,}$/);

    // The address's cooldown answers 429: the toast carries the server's words.
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await page.getByText('Sign in failed', { exact: true }).waitFor();
    await page.getByText(/Please wait (\d+ seconds|1 minute) before requesting another link\./).waitFor();
    await context.close();
  });

  it('names the coach dashboard for product=coach and the account otherwise, and links to /interest', async () => {
    const { context, page } = await openPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    // A visitor's session check is not an error: nothing in the console, the sign-in form and nothing else.
    const sessionCheck = page.waitForResponse('**/api/auth/refresh');
    await page.goto('/signin?product=coach');
    expect((await sessionCheck).status()).toBe(200);
    await page.getByRole('heading', { name: 'Access the Coach Dashboard' }).waitFor();
    await page.getByLabel('Email address').waitFor();
    expect(consoleErrors).toEqual([]);
    await page.goto('/signin');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await page.getByText(`© ${new Date().getFullYear()} Spark Evolution Labs`).waitFor();
    await page.getByRole('link', { name: 'Get started here' }).click();
    await page.waitForURL(isAt('/interest'));
    await context.close();
  });

  it('shows "Loading..." while the session is checked, then the signed-in card after a reload', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('card');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, '', 'Welcome! Redirecting to your onboarding...');

    const releaseRefresh = await holdBack(page, /\/api\/auth\/refresh$/);
    await page.goto('/signin');
    await page.getByText('Loading...', { exact: true }).waitFor();
    releaseRefresh();
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    await page.getByText('Signed in as', { exact: true }).waitFor();
    await page.getByText(email, { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/onboarding');
    await saveScreenshot(page, 'signin-signed-in-laptop');
    await context.close();
  });

  it('signs in with the e-mailed code instead of the link', async () => {
    const { context, page } = await openPage(phoneViewport);
    const email = uniqueEmail('code');
    await createUser(email, 'client');
    await page.goto('/signin');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await page.getByText('Magic link sent!', { exact: true }).waitFor();
    const { code } = await signInEmail(email);

    await page.getByRole('button', { name: /Use a code instead/ }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('6-digit code').fill(code);
    await saveScreenshot(page, 'signin-code-phone');
    await page.getByRole('button', { name: 'Sign in with code' }).click();
    await page.waitForURL(isAt('/onboarding'));
    expect(await stored(page, 'spark_user_email')).toBe(email);
    await context.close();
  });

  it('signs out from the signed-in card: the server session ends, the spec keys are cleared, / opens', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('signout');
    await createUser(email, 'coach');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, '', 'Welcome, coach! Redirecting to your dashboard...');
    await setStored(page, Object.fromEntries(specKeys.map((key) => [key, 'x'])));

    await page.goto('/signin');
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/coach');
    await page.getByRole('button', { name: 'Sign out and use different account' }).click();
    await page.waitForURL(isAt('/'));
    for (const key of specKeys) expect(await stored(page, key)).toBeNull();

    await page.goto('/signin');
    await page.getByRole('button', { name: 'Send Magic Link' }).waitFor();
    await context.close();
  });

  it('signs out a signed-in person who submits the interest form, on the server too (docs/product.md §8)', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('interest-signout');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, '', 'Welcome! Redirecting to your onboarding...');
    await page.goto('/signin');
    await page.getByText('Signed in as', { exact: true }).waitFor();

    await page.goto('/interest');
    const form = page.getByRole('form', { name: 'Express interest' }).first();
    await form.getByLabel('Email').fill(uniqueEmail('new-person'));
    await form.getByRole('button', { name: 'Get Started Free' }).click();
    await page.waitForURL(isAt('/interest/thank-you'));

    await page.goto('/signin');
    await page.getByRole('button', { name: 'Send Magic Link' }).waitFor();
    expect(await page.getByText('Signed in as', { exact: true }).count()).toBe(0);
    expect(await stored(page, 'spark_user_email')).toBeNull();
    await context.close();
  });
});

describe('/magic-link-auth', () => {
  it('shows whose the link is, signs in on the click, then routes a new client with next=ditl-welcome to /onboarding after 1.5 s', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('approved');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    const releaseRedeem = await holdBack(page, /\/api\/auth\/redeem$/);
    await page.goto(linkPath(token, 'next=ditl-welcome&approved=true'));
    await page.getByRole('heading', { name: 'Continue to Spark' }).waitFor();
    await page.getByText(email, { exact: true }).waitFor();
    await startDwellTimer(page, 'Welcome to Spark');
    await page.getByRole('button', { name: `Continue as ${email}` }).click();
    await page.getByRole('heading', { name: 'Authenticating Your Access' }).waitFor();
    await saveScreenshot(page, 'magic-link-processing-laptop');
    releaseRedeem();
    await page.getByRole('heading', { name: 'Welcome to Spark' }).waitFor();
    await page.getByText('Welcome! Redirecting to your onboarding...', { exact: true }).waitFor();
    await saveScreenshot(page, 'magic-link-success-laptop');
    await page.waitForURL(isAt('/onboarding'), { timeout: 5_000 });
    expect(await dwellMs(page)).toBeGreaterThanOrEqual(1_400);
    expect(await stored(page, 'spark_user_email')).toBe(email);
    expect(await stored(page, 'spark_magic_link_auth')).toBe('true');
    expect(await stored(page, 'spark_coach_approved')).toBe('true');
    await context.close();
  });

  it('spends nothing when the link is only opened: the token leaves the address bar, and another browser can still use the link', async () => {
    const email = uniqueEmail('scanned');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    // What a mail scanner does: open the link, run the page, click nothing.
    const scanner = await openPage(phoneViewport);
    const landing = await scanner.page.goto(linkPath(token, 'next=goal'));
    expect(landing?.headers()).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    await scanner.page.getByRole('button', { name: `Continue as ${email}` }).waitFor();
    expect(scanner.page.url()).toBe(`${baseUrl()}/magic-link-auth?next=goal`);
    await saveScreenshot(scanner.page, 'magic-link-confirm-phone');

    const person = await openPage(laptopViewport);
    await person.page.goto(linkPath(token, 'next=goal'));
    await person.page.getByText('This secure link signs you in as', { exact: true }).waitFor();
    await saveScreenshot(person.page, 'magic-link-confirm-laptop');
    await person.page.getByRole('button', { name: `Continue as ${email}` }).click();
    await person.page.getByText('Welcome! Redirecting you now...', { exact: true }).waitFor();
    await person.page.waitForURL(isAt('/goal'), { timeout: 5_000 });

    // The link is spent now: the page left open elsewhere cannot use it any more.
    await scanner.page.getByRole('button', { name: `Continue as ${email}` }).click();
    await scanner.page.getByRole('heading', { name: 'Authentication Issue' }).waitFor();
    await scanner.context.close();
    await person.context.close();
  });

  it('still signs in with a link sent before the token moved to the fragment, on the click', async () => {
    const { context, page } = await openPage(phoneViewport);
    const email = uniqueEmail('legacy');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await page.goto(`/magic-link-auth?token=${token}&next=goal`);
    await page.getByRole('button', { name: `Continue as ${email}` }).waitFor();
    expect(page.url()).toBe(`${baseUrl()}/magic-link-auth?next=goal`);
    await page.getByRole('button', { name: `Continue as ${email}` }).click();
    await page.waitForURL(isAt('/goal'), { timeout: 5_000 });
    await context.close();
  });

  it('routes a coach to /coach even with next=ditl-welcome (rule 1)', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('coach');
    await createUser(email, 'coach');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, 'next=ditl-welcome', 'Welcome, coach! Redirecting to your dashboard...');
    await page.waitForURL(isAt('/coach'), { timeout: 5_000 });
    await context.close();
  });

  it('routes a client with the onboarding flag to /app (rule 2)', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('onboarded');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await page.goto('/signup');
    await setStored(page, { spark_onboarding_complete: 'true' });
    await openLink(page, email, token, 'next=ditl-welcome', 'Welcome back to Spark! Redirecting to your dashboard...');
    await page.waitForURL(isAt('/app'), { timeout: 5_000 });
    await context.close();
  });

  it('follows another next (rule 4), and the same link opened again is refused', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('next');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, 'next=goal', 'Welcome! Redirecting you now...');
    await page.waitForURL(isAt('/goal'), { timeout: 5_000 });

    const second = await openPage(phoneViewport);
    await second.page.goto(linkPath(token));
    await second.page.getByRole('heading', { name: 'Authentication Issue' }).waitFor();
    await second.page.getByText('Authentication failed. Please try again or contact support.', { exact: true }).waitFor();
    await saveScreenshot(second.page, 'magic-link-error-phone');
    await second.page.getByRole('link', { name: 'Return to Signup' }).click();
    await second.page.waitForURL(isAt('/signup'));
    await second.context.close();
    await context.close();
  });

  it('routes a client without next to /onboarding (rule 5)', async () => {
    const { context, page } = await openPage(phoneViewport);
    const email = uniqueEmail('plain');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, '', 'Welcome! Redirecting to your onboarding...');
    await saveScreenshot(page, 'magic-link-success-phone');
    await page.waitForURL(isAt('/onboarding'), { timeout: 5_000 });
    expect(await stored(page, 'spark_coach_approved')).toBeNull();
    await context.close();
  });

  it('explains a missing token and an unreachable server', async () => {
    const { context, page } = await openPage();
    await page.goto('/magic-link-auth');
    await page.getByText('No active session found. Please check your email and click the magic link again.', { exact: true }).waitFor();
    await saveScreenshot(page, 'magic-link-error-laptop');

    await page.route('**/api/auth/link-info', (route) => route.abort('connectionrefused'));
    await page.goto(linkPath('this-token-never-reaches-the-server'));
    await page.getByText('An unexpected error occurred. Please try again.', { exact: true }).waitFor();
    await context.close();
  });
});

describe('/signup', () => {
  it('explains coach approval in 4 steps and leads to /interest', async () => {
    const { context, page } = await openPage(phoneViewport);
    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Coach Approval Required' }).waitFor();
    expect(await page.locator('ol > li').count()).toBe(4);
    await saveScreenshot(page, 'signup-phone');
    await page.getByRole('link', { name: 'Express Interest' }).click();
    await page.waitForURL(isAt('/interest'));
    await context.close();
  });

  it('welcomes back an approved e-mail with the link rules', async () => {
    const { context, page } = await openPage();
    await page.goto('/signup');
    await setStored(page, { spark_coach_approved: 'true', spark_user_email: 'ada@example.com' });
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.getByText('ada@example.com', { exact: true }).waitFor();
    await page.getByText('It expires in 1 hour.', { exact: true }).waitFor();
    await saveScreenshot(page, 'signup-welcome-back-laptop');
    await context.close();
  });

  it('forwards a link in the URL fragment to /magic-link-auth with its query', async () => {
    const { context, page } = await openPage();
    await page.goto('/signup?next=goal#type=magiclink');
    await page.waitForURL((url) => url.pathname === '/magic-link-auth' && url.search === '?next=goal');
    const email = uniqueEmail('forwarded');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await page.goto(`/signup?next=goal#token=${token}`);
    await page.getByRole('button', { name: `Continue as ${email}` }).waitFor();
    await context.close();
  });

  it('sends a signed-in user to /app', async () => {
    const { context, page } = await openPage();
    const email = uniqueEmail('signup');
    await createUser(email, 'client');
    const { token } = await requestSignIn(email);
    await openLink(page, email, token, 'next=goal', 'Welcome! Redirecting you now...');
    await page.waitForURL(isAt('/goal'), { timeout: 5_000 });
    await page.goto('/signup');
    await page.waitForURL(isAt('/app'));
    await context.close();
  });
});

describe('screenshots', () => {
  it('captures /signin on phone and laptop', async () => {
    for (const [name, viewport] of screenSizes) {
      const { context, page } = await openPage(viewport);
      await page.goto('/signin?product=spark');
      await page.getByRole('button', { name: 'Send Magic Link' }).waitFor();
      await saveScreenshot(page, `signin-${name}`);
      await page.goto('/signup');
      await page.getByRole('heading', { name: 'Coach Approval Required' }).waitFor();
      await saveScreenshot(page, `signup-${name}`);
      await context.close();
    }
  });
});
