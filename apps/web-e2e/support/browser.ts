import { randomInt } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page, type Response } from 'playwright-core';

export const phoneViewport = { width: 390, height: 844 } as const;
export const laptopViewport = { width: 1366, height: 900 } as const;
/** The two screens a journey's screenshots are taken on, each with the name its screenshots carry. */
export const screenSizes = [
  ['phone', phoneViewport],
  ['laptop', laptopViewport],
] as const;

/** What the gateway answers for a route whose service is down; for `route.fulfill`. */
export const serviceUnavailable = {
  status: 503,
  contentType: 'application/json',
  body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' }),
};

const screenshotDir = join(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');

/** The product under test; global-setup starts it and publishes its address. */
export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the e2e project so global-setup starts the product');
  return url.replace(/\/$/, '');
}

// Content-Security-Policy violations seen by any page of any browser context, until a test takes them.
const cspViolations: string[] = [];
let expectedCspViolations: RegExp | undefined;

/**
 * The violations seen since the last call, but for those the running test expects (csp-guard.ts fails the test
 * when there are any, and ends the expectation with the test).
 */
export const takeCspViolations = (): string[] => cspViolations.splice(0).filter((report) => !expectedCspViolations?.test(report));

/**
 * Until the running test ends, reports matching `pattern` are the policy doing its job, not a page it broke. They
 * may arrive after the test's last step, so the guard, not the test, sets them aside.
 */
export function expectCspViolations(pattern: RegExp | undefined): void {
  expectedCspViolations = pattern;
}

/**
 * Records every CSP violation of the context's pages: the `securitypolicyviolation` event where a
 * page can run scripts, and Chromium's console error for frames that cannot (a sandboxed srcdoc).
 */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__reportCspViolation', ({ page }, violation: string) => {
    cspViolations.push(`${page.url()}: ${violation}`);
  });
  await context.addInitScript(
    "document.addEventListener('securitypolicyviolation', (event) => window.__reportCspViolation(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'} (${event.sourceFile}:${event.lineNumber})`));",
  );
  context.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) cspViolations.push(`${message.page()?.url()}: ${message.text()}`);
  });
}

/** Chromium whose every context watches for CSP violations, so a page the policy breaks fails its test. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  return browser;
}

/**
 * A documentation-range address per caller, in a network of its own (an IPv6 /48), so neither the per-address nor
 * the per-network rate limits couple two tests.
 */
const randomGroup = () => randomInt(0, 0x10000).toString(16);
export const uniqueIp = () => `198.51.100.${randomInt(1, 255)}, 2001:db8:${randomGroup()}:${randomGroup()}::${randomGroup()}`;

/** A new context on the product, laptop-sized unless told, calling from an address of its own. */
export function visitorContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: laptopViewport, ...options, baseURL: baseUrl(), extraHTTPHeaders: { 'X-Forwarded-For': uniqueIp() } });
}

/** A page of a new visitor's context. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  return (await visitorContext(browser, options)).newPage();
}

/**
 * Holds the page's requests to `url` (of `method`, when given) until the returned release is called; later ones pass
 * at once. A slow network on cue: the test acts while the answer is pending, then lets it through.
 */
export async function holdBack(page: Page, url: RegExp, method?: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    if (method === undefined || route.request().method() === method) await released;
    await route.continue();
  });
  return release;
}

/**
 * `row`, once the list shows it: other test files' data shares the database, so a row may be on a later page of a
 * paged list. Presses "Load more" as a person would until it is there.
 */
export async function shownInPagedList(page: Page, row: Locator): Promise<Locator> {
  const more = page.getByRole('button', { name: 'Load more' });
  for (;;) {
    await row.or(more).first().waitFor();
    if ((await row.count()) > 0) return row;
    await more.click();
    await page.getByRole('button', { name: 'Loading...' }).waitFor({ state: 'detached' });
  }
}

/**
 * The first matching request reaches the product, which does its work, but its answer never reaches the page: the page
 * sees a 503, as after a gateway restarting or a connection dropped on the way back.
 */
export async function loseFirstAnswer(page: Page, url: RegExp, method: string): Promise<void> {
  let lost = false;
  await page.route(url, async (route) => {
    if (lost || route.request().method() !== method) return route.continue();
    lost = true;
    await route.fetch();
    await route.fulfill(serviceUnavailable);
  });
}

/**
 * The answer to the page's request to `path` searching for `term`. A list searched as the person types asks once the
 * typing pauses, and a row just added is on the unsearched list too: a test waits for this before acting on a row.
 */
export function searchAnswered(page: Page, path: string, term: string): Promise<Response> {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === path && url.searchParams.get('search') === term;
  });
}

/**
 * Types `text` into `field` key by key, `keyIntervalMs` apart on the page's clock, which stands still otherwise, then
 * lets a second pass: the page sees a person typing at that pace and then pausing, however long a loaded machine
 * takes between two keys. The page must have loaded after `page.clock.install()`.
 */
export async function typeThenPause(page: Page, field: Locator, text: string, keyIntervalMs = 60): Promise<void> {
  await page.clock.pauseAt(Date.now() + 1_000);
  for (const key of text) {
    await field.press(key);
    await page.clock.runFor(keyIntervalMs);
  }
  await page.clock.runFor(1_000);
  await page.clock.resume();
}

// A full-page capture paints beyond the viewport, where sections with content-visibility: auto are
// skipped; a reader scrolling down sees every one of them, so the capture shows them all too.
const renderEverySection = '* { content-visibility: visible !important; }';

/** Full-page PNG under test-artifacts/screenshots, kept for humans to review. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  await page.addStyleTag({ content: renderEverySection });
  const path = join(screenshotDir, `${name}.png`);
  // Finished, not caught halfway: a toast sliding in shows where it comes to rest.
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/** A real PNG with a caption painted on it, so screenshots show where uploaded images sit. */
export async function paintedPicture(page: Page, caption: string, size = { width: 960, height: 400 }): Promise<Buffer> {
  const painter = await page.context().newPage();
  await painter.setViewportSize(size);
  await painter.setContent(
    `<body style="margin:0;display:grid;place-items:center;height:100vh;font:700 44px sans-serif;color:white;background:linear-gradient(135deg,#0f172a,#f97316)">${caption}</body>`,
  );
  const png = await painter.screenshot();
  await painter.close();
  return png;
}

/**
 * Waits until a JavaScript expression is true in the page. Playwright's waitForFunction compiles a string
 * with `new Function`, which the site's CSP refuses; evaluating an expression goes through the DevTools
 * protocol, which it does not.
 */
export async function waitUntilTrue(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > deadline) throw new Error(`the page never made this true: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts timing how long `text` shows before the page leaves its current path, in the page's own clock
 * (`performance.now()` at the first change to the document that shows the text, and at the first one after the path
 * changed). The test's own clock is no good for this: with two browsers and the product sharing two cores, the test
 * can see a change hundreds of milliseconds after the page made it.
 */
export async function startDwellTimer(page: Page, text: string): Promise<void> {
  await page.evaluate(`{
    const dwell = (window.e2eDwell = {});
    const path = location.pathname;
    new MutationObserver((_, observer) => {
      const now = performance.now();
      if (dwell.shownAt === undefined && document.body.textContent.includes(${JSON.stringify(text)})) dwell.shownAt = now;
      if (location.pathname !== path) {
        dwell.leftAt = now;
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }`);
}

/** How long the text of `startDwellTimer` showed, in ms, once the page has left the path (NaN if it never showed). */
export async function dwellMs(page: Page): Promise<number> {
  await waitUntilTrue(page, 'window.e2eDwell.leftAt !== undefined');
  return page.evaluate<number>('window.e2eDwell.leftAt - window.e2eDwell.shownAt');
}
