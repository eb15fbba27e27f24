import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createUser, e2eDatabase, signedInContext, uniqueEmail, useBrowser } from './support/auth-fixtures';
import {
  expectCspViolations,
  laptopViewport,
  loseFirstAnswer,
  paintedPicture,
  phoneViewport,
  saveScreenshot,
  screenSizes,
  serviceUnavailable,
  visitorContext,
  waitUntilTrue,
} from './support/browser';

jest.setTimeout(180_000);

const browser = useBrowser();
const db = e2eDatabase();

type Viewport = { width: number; height: number };

/** A signed-in admin on /coach's Developer's Log tab; every browser dialog (alert) is recorded. */
async function publisher(viewport: Viewport = laptopViewport): Promise<{ page: Page; dialogs: string[] }> {
  const email = uniqueEmail('dev-log-admin');
  await createUser(email, 'admin');
  const { page } = await signedInContext(browser(), email, { viewport });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto('/coach');
  await page.getByRole('tab', { name: "Developer's Log" }).click();
  await page.getByRole('button', { name: 'Process & Preview' }).waitFor();
  return { page, dialogs };
}

const markdownFile = (name: string, markdown: string) => ({ name, mimeType: 'text/markdown', buffer: Buffer.from(markdown) });

async function publishAndOpen(page: Page, title: string): Promise<void> {
  await page.getByRole('heading', { name: `Preview: ${title}` }).waitFor();
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('heading', { name: 'Published' }).waitFor();
}

// Images in the post that the browser fetched and decoded (strings: this file has no DOM types).
const loadedImageCount = "[...document.querySelectorAll('article img')].filter((img) => img.complete && img.naturalWidth > 0).length";

describe("the Developer's Log publisher", () => {
  it('refuses two markdown files, empty content and an entry whose wiki-link image was not uploaded', async () => {
    const { page } = await publisher();
    const files = page.getByLabel('Markdown and image files');
    await files.setInputFiles([markdownFile('one.md', '# One'), markdownFile('two.md', '# Two')]);
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('alert').getByText('Multiple markdown files').waitFor();

    await files.setInputFiles([markdownFile('empty.md', '   \n')]);
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('alert').getByText('No content').waitFor();

    await page.getByRole('tab', { name: 'New Entry' }).click();
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('alert').getByText('No content').waitFor();
    await page.getByLabel('Entry markdown').fill('# Week 12\n\n![[missing.png]]');
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('alert').getByText('Missing images').waitFor();
    await page.getByRole('alert').getByText('missing.png').waitFor();
    await saveScreenshot(page, 'dev-log-tab-error-laptop');
    await page.context().close();
  });

  it('uploads a markdown file with its image, previews and publishes it; /log lists it newest first and /log/:slug shows the image', async () => {
    const { page } = await publisher();
    const olderTitle = `Week ${Date.now()}: the coach dashboard`;
    await page.getByRole('tab', { name: 'New Entry' }).click();
    await page.getByLabel('Entry markdown').fill(`# ${olderTitle}\n\nCoaches now see every client at a glance.`);
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await publishAndOpen(page, olderTitle);
    await page.getByRole('button', { name: 'Write another entry' }).click();

    const title = `Week ${Date.now()}: offline capture`;
    const image = await paintedPicture(page, 'Offline capture, week 13');
    await page.getByRole('tab', { name: 'Upload Files' }).click();
    await page
      .getByLabel('Markdown and image files')
      .setInputFiles([
        markdownFile(
          'week-13.md',
          `# ${title}\n\nSparks captured offline now upload by themselves.\n\n![[capture.png]]\n\n## What is next\n\n- Reminders\n- Streaks`,
        ),
        { name: 'capture.png', mimeType: 'image/png', buffer: image },
      ]);
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('heading', { name: `Preview: ${title}` }).waitFor();
    await expect(page.evaluate<boolean>(`document.querySelector('img[src*="capture.png"]').decode().then(() => true)`)).resolves.toBe(true);
    await saveScreenshot(page, 'dev-log-preview-laptop');
    await publishAndOpen(page, title);

    await page.goto('/log');
    await page.getByRole('link', { name: title }).waitFor();
    const titles = await page.locator('main h2').allInnerTexts();
    expect(titles.indexOf(title)).toBeLessThan(titles.indexOf(olderTitle));
    expect(titles.indexOf(title)).toBeGreaterThanOrEqual(0);
    await page.getByRole('link', { name: title }).click();
    await page.waitForURL(/\/log\/[\w-]+$/);
    await page.getByRole('heading', { name: 'What is next' }).waitFor();
    await page.locator('article img').first().waitFor();
    await waitUntilTrue(page, `${loadedImageCount} > 0`);
    expect(await page.evaluate<number>(loadedImageCount)).toBe(1);
    await page.context().close();
  });

  it('publishes an entry once when the first answer is lost on its way and the admin presses Publish again', async () => {
    const { page } = await publisher();
    const title = `Lost answer ${randomUUID().slice(0, 8)}`;
    // The post is published, but the browser hears 503: the gateway gave up on a content-service replica that died.
    await loseFirstAnswer(page, /\/api\/log\/posts$/, 'POST');
    await page.getByRole('tab', { name: 'New Entry' }).click();
    await page.getByLabel('Entry markdown').fill(`# ${title}\n\nWritten once, published once.`);
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await page.getByRole('heading', { name: `Preview: ${title}` }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Publishing failed').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Published' }).waitFor();

    const posts = await db.query('SELECT slug FROM content.posts WHERE title = $1', [title]);
    expect(posts.rows).toHaveLength(1);
    await page.getByRole('link', { name: `Read it at /log/${posts.rows[0].slug}` }).waitFor();
    await page.context().close();
  });

  it('publishes markdown with <script> and onerror= that renders inert on /log/:slug', async () => {
    // Chromium reports the handler of the post's <img> when the sanitizer parses it: blocked twice over.
    expectCspViolations(/script-src-attr|inline event handler/);
    const { page, dialogs } = await publisher();
    const title = `Week ${Date.now()}: hostile markup`;
    await page.getByRole('tab', { name: 'New Entry' }).click();
    await page
      .getByLabel('Entry markdown')
      .fill(
        `# ${title}\n\nThis entry tries to run code.\n\n<script>alert('script ran')</script>\n\n<img src="x" onerror="alert('handler ran')">\n\n[click](javascript:alert('link ran'))`,
      );
    await page.getByRole('button', { name: 'Process & Preview' }).click();
    await publishAndOpen(page, title);

    await page.goto('/log');
    const listed = page.getByRole('link', { name: title });
    expect(await listed.innerText()).toContain('This entry tries to run code.');
    expect(await listed.innerText()).not.toContain('alert(');
    await listed.click();
    await page.getByText('This entry tries to run code.').waitFor();
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(await page.locator('article script').count()).toBe(0);
    expect(await page.locator('[onerror]').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    await page.context().close();
  });
});

describe("a post's markup cannot take over /log", () => {
  it('drops <style>, style=, forms and iframes from a post that tries a full-page overlay; the page stays usable', async () => {
    const email = uniqueEmail('dev-log-overlay');
    await createUser(email, 'admin');
    const { context, page, accessToken } = await signedInContext(browser(), email, { viewport: phoneViewport });
    const title = `Week ${Date.now()}: overlay attempt`;
    const markdown = [
      `# ${title}`,
      'This entry tries to cover the page.',
      '<style>header, nav { display: none !important } body { overflow: hidden }</style>',
      '<div class="takeover" style="position:fixed;inset:0;z-index:2147483647;background:#fff;padding:40px">Spark has moved. Sign in again:',
      '<form action="http://localhost:9/steal" method="post"><input name="email" placeholder="Your e-mail"><button>Sign in</button></form></div>',
      '<iframe src="http://localhost:9/" width="1000" height="1000"></iframe>',
    ].join('\n\n');
    const published = await context.request.post('/api/log/posts', { data: { markdown }, headers: { authorization: `Bearer ${accessToken}` } });
    expect(published.status()).toBe(201);
    const { slug } = (await published.json()) as { slug: string };

    await page.goto(`/log/${slug}`);
    await page.getByText('This entry tries to cover the page.').waitFor();
    expect(await page.locator('article style, article form, article input, article iframe, article [style]').count()).toBe(0);
    // What lies at the middle of the screen is the post's own text flow, not a layer above the site.
    expect(await page.evaluate<boolean>("!document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('.takeover, iframe')")).toBe(true);
    expect(await page.evaluate<string>('getComputedStyle(document.body).overflow')).not.toBe('hidden');
    await saveScreenshot(page, 'log-post-overlay-attempt-phone');
    await context.close();
  });
});

describe('/log for a visitor', () => {
  it('says an unknown entry does not exist, and that the log could not be loaded when the API is down', async () => {
    const context = await visitorContext(browser(), { viewport: phoneViewport });
    const page = await context.newPage();
    await page.goto('/log/no-such-entry');
    await page.getByText('This entry does not exist (any more).', { exact: true }).waitFor();
    await saveScreenshot(page, 'log-post-missing-phone');
    await page.getByRole('link', { name: '← All entries' }).click();
    await page.getByRole('heading', { level: 1, name: "Developer's Log" }).waitFor();

    await page.route('**/api/log/posts?*', (route) => route.fulfill(serviceUnavailable));
    await page.goto('/log');
    await page.getByText('The log could not be loaded. Please try again.', { exact: true }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: "Developer's Log" }).isVisible()).toBe(true);
    await saveScreenshot(page, 'log-unavailable-phone');
    await context.close();
  });
});

describe('screens (reviewed by eye)', () => {
  it("/log, /log/:slug and the Developer's Log tab on a phone and a laptop", async () => {
    for (const [suffix, viewport] of screenSizes) {
      const { page } = await publisher(viewport);
      await saveScreenshot(page, `dev-log-tab-${suffix}`);
      await page.goto('/log');
      await page.locator('main h2').first().waitFor();
      await saveScreenshot(page, `log-${suffix}`);
      await page
        .getByRole('link', { name: /offline capture/ })
        .first()
        .click();
      await page.locator('article img').first().waitFor();
      await page.waitForLoadState('networkidle');
      await saveScreenshot(page, `log-post-${suffix}`);
      await page.context().close();
    }
  });
});
