import type { Locator, Page } from 'playwright-core';
import { baseUrl, holdBack, newPage, phoneViewport, saveScreenshot, serviceUnavailable, waitUntilTrue } from './support/browser';
import { useBrowser } from './support/auth-fixtures';

const browser = useBrowser();

/** Public pages arrive prerendered: wait until React has taken over, as a visitor's taps need it. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
}

async function openPage(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await newPage(browser(), { viewport });
  await visit(page, path);
  return page;
}

const locationOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}${url.hash}`;
};

/** Clicks and waits until the browser shows the expected path (with query and hash). */
async function expectClickLeadsTo(page: Page, target: Locator, expected: string): Promise<void> {
  await target.click();
  await page.waitForURL((url) => `${url.pathname}${url.search}${url.hash}` === expected, { timeout: 10_000 });
  expect(locationOf(page)).toBe(expected);
}

/**
 * Expects the element's top edge to come to rest just under the sticky header, where the page's scroll-padding puts
 * a section's top. Smooth scrolling takes a moment, and longer on a machine whose browser is short of CPU, so the
 * position must hold for half a second, not just pass by; the positions seen on the way tell a slow scroll from a
 * wrong one.
 */
async function expectScrolledTo(page: Page, selector: string): Promise<void> {
  const landing = Number.parseFloat(await page.evaluate<string>('getComputedStyle(document.documentElement).scrollPaddingTop'));
  const deadline = Date.now() + 15_000;
  const tops: number[] = [];
  let pollsAtLanding = 0;
  while (Date.now() < deadline && pollsAtLanding < 5) {
    const top = Math.round((await page.locator(selector).boundingBox())?.y ?? Number.NaN);
    pollsAtLanding = Math.abs(top - landing) <= 2 ? pollsAtLanding + 1 : 0;
    if (tops.at(-1) !== top) tops.push(top);
    await page.waitForTimeout(100);
  }
  if (pollsAtLanding < 5) throw new Error(`${selector} did not come to rest at ${landing} px from the top (its top went ${tops.join(' → ')} px)`);
}

describe('landing page', () => {
  it('top navigation leads to each section, the founder page and the interest form', async () => {
    const page = await openPage('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [label, destination, section] of [
      ['Method', '/#method', '#method'],
      ['Research', '/#research', '#research'],
      ['Ecosystem', '/#ecosystem', '#ecosystem'],
      ['Products', '/#products', '#products'],
    ] as const) {
      await expectClickLeadsTo(page, nav.getByRole('link', { name: label, exact: true }), destination);
      await expectScrolledTo(page, section);
    }
    await expectClickLeadsTo(page, nav.getByRole('link', { name: 'The Proof' }), '/me');
    await visit(page, '/');
    await expectClickLeadsTo(page, nav.getByRole('link', { name: 'Get Started' }), '/interest');
    await page.context().close();
  });

  it('hero buttons start the evolution and smooth-scroll to the method', async () => {
    const page = await openPage('/');
    await expectClickLeadsTo(page, page.getByRole('link', { name: 'Learn More', exact: true }), '/#method');
    await expectScrolledTo(page, '#method');
    await visit(page, '/');
    await expectClickLeadsTo(page, page.getByRole('link', { name: 'Start Your Evolution' }), '/interest');
    await page.context().close();
  });

  it('each of the four product cards leads to the products page', async () => {
    const page = await openPage('/');
    const cardLinks = page.locator('#products').getByRole('link', { name: /^Learn More about / });
    expect(await cardLinks.count()).toBe(4);
    for (let index = 0; index < 4; index++) {
      await visit(page, '/#products');
      await expectClickLeadsTo(page, cardLinks.nth(index), '/products');
    }
    await page.context().close();
  });

  it('"Get The Spark" leads to the interest form', async () => {
    const page = await openPage('/');
    await expectClickLeadsTo(page, page.getByRole('link', { name: 'Get The Spark' }), '/interest');
    await page.context().close();
  });

  it('footer offers sign-in, the founder and the legal name with the current year', async () => {
    const page = await openPage('/');
    const footer = page.locator('footer');
    const year = new Date().getFullYear();
    expect(await footer.getByText(`© ${year} Spark Evolution Labs, Inc.`).count()).toBe(1);
    await expectClickLeadsTo(page, footer.getByRole('link', { name: 'Returning user? Sign in here' }), '/signin');
    await visit(page, '/');
    await expectClickLeadsTo(page, footer.getByRole('link', { name: 'About the Founder' }), '/me');
    await visit(page, '/');
    await expectClickLeadsTo(page, footer.getByRole('link', { name: 'The Method' }), '/#method');
    await expectScrolledTo(page, '#method');
    await page.context().close();
  });

  // Sections off screen keep a placeholder height until they come near it, so a scroll passing sections the visitor
  // has not seen yet must still end on its target's heading.
  it("lands on a section's heading when the sections passed on the way have not been shown yet", async () => {
    const laptop = await openPage('/');
    await expectClickLeadsTo(laptop, laptop.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products', exact: true }), '/#products');
    await expectScrolledTo(laptop, '#products');
    await laptop.context().close();

    const phone = await openPage('/', phoneViewport);
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await expectClickLeadsTo(phone, phone.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Products', exact: true }), '/#products');
    await expectScrolledTo(phone, '#products');
    await phone.context().close();
  });

  it('sets a title, a description and social-sharing metadata', async () => {
    const page = await openPage('/');
    await page.locator('#method').waitFor();
    expect(await page.title()).toContain('Spark');
    for (const selector of ['meta[name="description"]', 'meta[property="og:title"]', 'meta[property="og:description"]', 'meta[name="twitter:card"]']) {
      expect(await page.locator(selector).getAttribute('content')).toBeTruthy();
    }
    await page.context().close();
  });
});

describe('products page', () => {
  it('buttons lead to sign-in per product, the interest form, the method, the research and the founder', async () => {
    const page = await openPage('/products');
    const main = page.locator('main');
    for (const [label, destination] of [
      ['Open The Spark', '/signin?product=spark'],
      ['Open Coach Dashboard', '/signin?product=coach'],
      ['Request access', '/interest'],
      ['Explore the method', '/#method'],
      ['The research', '/#research'],
      ['Meet the founder', '/me'],
      ['Returning user? Sign in here', '/signin'],
    ] as const) {
      await visit(page, '/products');
      await expectClickLeadsTo(page, main.getByRole('link', { name: label, exact: true }), destination);
    }
    await page.context().close();
  });
});

describe('unknown pages', () => {
  it('show "Oops! Page not found" with a link home', async () => {
    const page = await openPage('/this/page/does-not-exist');
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    await expectClickLeadsTo(page, page.getByRole('link', { name: 'Return to Home' }), '/');
    await page.context().close();
  });
});

describe('Day in the Life carousel', () => {
  it('advances to the next slide on its own after about four seconds', async () => {
    const page = await openPage('/interest');
    // The slides load as the visitor scrolls down to them.
    await page.getByRole('heading', { name: 'See what a day with Spark looks like' }).scrollIntoViewIfNeeded();
    const carousel = page.locator('[aria-roledescription="carousel"]');
    await carousel.scrollIntoViewIfNeeded();
    const firstIndex = await carousel.getAttribute('data-selected-index');
    // Timed in the page, from one advance to the next: a busy machine delays the test's own clock, never the page's early.
    await page.evaluate(`{
      const advances = (window.e2eCarouselAdvances = []);
      const carousel = document.querySelector('[aria-roledescription="carousel"]');
      new MutationObserver(() => advances.push({ at: performance.now(), index: carousel.getAttribute('data-selected-index') }))
        .observe(carousel, { attributes: true, attributeFilter: ['data-selected-index'] });
    }`);
    await waitUntilTrue(page, 'window.e2eCarouselAdvances.length >= 2', 20_000);
    const [first, second] = await page.evaluate<{ at: number; index: string }[]>('window.e2eCarouselAdvances');
    expect(first.index).not.toBe(firstIndex);
    expect(second.index).not.toBe(first.index);
    expect(second.at - first.at).toBeGreaterThanOrEqual(3_000);
    expect(second.at - first.at).toBeLessThan(8_000);
    await page.context().close();
  });
});

describe('prerendered public pages', () => {
  it.each([
    ['/', 'Spark: research-based habit coaching'],
    ['/interest', 'Start your evolution | Spark'],
    ['/products', 'Products | Spark'],
    ['/me', 'The founder | Spark'],
    ['/evolutions', 'Evolution cycles | Spark'],
    ['/donate', 'Invest in Spark | Spark'],
    ['/log', "Developer's Log | Spark"],
  ])('%s arrives as HTML with its content, title and share tags for crawlers that run no JavaScript', async (path, title) => {
    const response = await fetch(`${baseUrl()}${path}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    const html = await response.text();
    const url = `${baseUrl()}${path}`;
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<meta property="og:title" content="${title}" />`);
    expect(html).toContain(`<meta property="og:url" content="${url}" />`);
    expect(html).toContain(`<link rel="canonical" href="${url}" />`);
    expect(html).toMatch(/<div id="root">.*<h1[^>]*>.+<\/h1>.*<footer/s);
  });

  it('hydrates /interest in place, keeping what the visitor typed before the page became interactive', async () => {
    const page = await newPage(browser(), { viewport: phoneViewport });
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    // A slow phone: the page's own chunk is held back until the visitor has typed into the prerendered form.
    const releaseChunk = await holdBack(page, /\/assets\/interest-page-[\w-]+\.js$/);
    await page.goto('/interest', { waitUntil: 'commit' });
    const form = page.getByRole('form', { name: 'Express interest' }).first();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(`window.prerenderedHeading = document.querySelector('h1')`);
    await form.getByLabel('Email').fill('typed-early@example.com');
    await form.getByLabel('I am a').selectOption('coach');
    expect(await form.getByRole('button', { name: 'Get Started Free' }).isDisabled()).toBe(true);

    releaseChunk();
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    await form.getByRole('button', { name: 'Get Started Free' }).waitFor();
    expect(await form.getByRole('button', { name: 'Get Started Free' }).isEnabled()).toBe(true);
    // The very element that arrived in the HTML: hydrated, not thrown away and rendered again.
    expect(await page.evaluate(`window.prerenderedHeading === document.querySelector('h1')`)).toBe(true);
    expect(await form.getByLabel('Email').inputValue()).toBe('typed-early@example.com');
    expect(await form.getByLabel('I am a').inputValue()).toBe('coach');
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('leaves a visitor who scrolled the landing page before it became interactive where they scrolled to', async () => {
    const page = await newPage(browser(), { viewport: phoneViewport });
    const releaseScript = await holdBack(page, /\/assets\/index-[\w-]+\.js$/);
    await page.goto('/', { waitUntil: 'commit' });
    await page.locator('#products').waitFor();
    await page.locator('#products').scrollIntoViewIfNeeded();
    const scrolledTo = await page.evaluate<number>('window.scrollY');
    expect(scrolledTo).toBeGreaterThan(0);

    releaseScript();
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    await page.evaluate('new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))');
    expect(await page.evaluate<number>('window.scrollY')).toBe(scrolledTo);
    await page.context().close();
  });

  // Their API data is not in the HTML: it renders once React has taken over, from the route's loader.
  it.each([
    ['/donate', 'Back the habit platform built on research.', 'The commitment levels could not be loaded. Please try again later.'],
    ['/log', "Developer's Log", 'No entries yet. Check back soon.'],
  ])('hydrates %s in place, then shows what its loader read', async (path, heading, loaded) => {
    const page = await newPage(browser());
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    // Known answers for the data, so the text after hydration is certain; the console then has one expected failure.
    await page.route('**/api/investors/donate-page', (route) => route.fulfill(serviceUnavailable));
    await page.route('**/api/log/posts?**', (route) => route.fulfill({ json: { items: [], nextCursor: null } }));
    const html = await (await fetch(`${baseUrl()}${path}`)).text();
    expect(html).toContain(heading.replace("'", '&#x27;'));
    expect(html).not.toContain(loaded);

    await page.goto(path, { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.evaluate(`window.prerenderedHeading = document.querySelector('h1')`);
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    await page.getByText(loaded, { exact: true }).waitFor();
    expect(await page.evaluate(`window.prerenderedHeading === document.querySelector('h1')`)).toBe(true);
    expect(consoleErrors.filter((error) => !error.includes('503'))).toEqual([]);
    await page.context().close();
  });

  it('keeps the deck request typed into /donate before it became interactive, and the button says it will download', async () => {
    const page = await newPage(browser(), { viewport: phoneViewport });
    // The page's code arrives only once the form is filled in, however slowly the browser types.
    let deliverPageCode: () => void = () => undefined;
    const formFilled = new Promise<void>((resolve) => (deliverPageCode = resolve));
    await page.route(/\/assets\/donate-page-[\w-]+\.js$/, async (route) => {
      await formFilled;
      await route.continue();
    });
    await page.goto('/donate', { waitUntil: 'commit' });
    const button = page.getByRole('button', { name: 'Request Full Deck' });
    await button.waitFor();
    await page.getByPlaceholder('you@fund.com').fill('early-investor@example.com');
    await page.getByPlaceholder('SPARK-XXXX-XXXX-XXXX-XXXX-XXXX').fill('SPARK-ABCD-EFGH-JKLM-NPQR-STUV');
    expect(await button.isDisabled()).toBe(true);

    deliverPageCode();
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    const download = page.getByRole('button', { name: 'Download Deck' });
    await download.waitFor();
    expect(await download.isEnabled()).toBe(true);
    expect(await page.getByPlaceholder('you@fund.com').inputValue()).toBe('early-investor@example.com');
    await page.context().close();
  });

  it('serves /donate?early-access as a page of its own and hydrates it in place', async () => {
    const html = await (await fetch(`${baseUrl()}/donate?utm_source=mail&early-access`)).text();
    expect(html).toContain('Our investor round opens soon');
    expect(html).not.toContain('Back the habit platform built on research.');

    const page = await newPage(browser());
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    await page.goto('/donate?early-access', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1, name: 'Our investor round opens soon' }).waitFor();
    await page.evaluate(`window.prerenderedHeading = document.querySelector('h1')`);
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    expect(await page.getByRole('button', { name: 'Keep me posted' }).isEnabled()).toBe(true);
    expect(await page.evaluate(`window.prerenderedHeading === document.querySelector('h1')`)).toBe(true);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it("shows the visitor's year in the footer even when the page was prerendered the year before", async () => {
    const page = await newPage(browser());
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    const nextYear = new Date().getFullYear() + 1;
    await page.clock.setFixedTime(new Date(`${nextYear}-01-02T10:00:00Z`));
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(`window.prerenderedHeading = document.querySelector('h1')`);
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
    await page.locator('footer').getByText(`© ${nextYear} Spark Evolution Labs, Inc. All rights reserved.`).waitFor();
    expect(await page.evaluate(`window.prerenderedHeading === document.querySelector('h1')`)).toBe(true);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});

describe('on a phone', () => {
  const publicPages = [
    ['/', 'landing'],
    ['/interest', 'interest'],
    ['/products', 'products'],
    ['/me', 'founder'],
    ['/evolutions', 'evolutions'],
    ['/no-such-page', 'not-found'],
  ] as const;

  it.each(publicPages)('%s fits a 390 px screen without sideways scrolling', async (path, name) => {
    const page = await openPage(path, phoneViewport);
    await page.locator('footer').waitFor();
    await page.waitForLoadState('networkidle');
    const pageWidth = await page.evaluate('document.documentElement.scrollWidth');
    expect(pageWidth).toBeLessThanOrEqual(phoneViewport.width);
    await saveScreenshot(page, `mobile-${name}`);
    await page.context().close();
  });

  it('the menu button opens the navigation', async () => {
    const page = await openPage('/', phoneViewport);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expectClickLeadsTo(page, menu.getByRole('link', { name: 'The Proof' }), '/me');
    await page.context().close();
  });
});
