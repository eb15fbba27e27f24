// Issue 7's "Lighthouse PWA checks pass": Lighthouse 12 dropped its PWA category, so this checks the same
// installability criteria itself in Chromium (playwright-core) against the product started from dist/:
//   npm run build && node -r @swc-node/register bench/lighthouse-pwa.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { LIGHTHOUSE_STACK, startBenchStack } from './product-stack';

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  display?: string;
  prefer_related_applications?: boolean;
  icons?: { sizes?: string; purpose?: string }[];
}

const checks: { name: string; passed: boolean; detail: string }[] = [];
const check = (name: string, passed: boolean, detail = '') => checks.push({ name, passed, detail });

async function checkManifest(page: Page, baseUrl: string): Promise<Manifest> {
  const href = await page.getAttribute('link[rel="manifest"]', 'href');
  check('page links a web app manifest', href !== null, href ?? 'no <link rel="manifest">');
  const manifest = (await (await fetch(new URL(href ?? '/manifest.webmanifest', baseUrl))).json()) as Manifest;
  const sizes = (manifest.icons ?? []).flatMap((icon) => (icon.sizes ?? '').split(' '));
  check('manifest has name and short_name', Boolean(manifest.name && manifest.short_name), `${manifest.name} / ${manifest.short_name}`);
  check('manifest has start_url', Boolean(manifest.start_url), manifest.start_url ?? '');
  check('display is standalone, fullscreen or minimal-ui', ['standalone', 'fullscreen', 'minimal-ui'].includes(manifest.display ?? ''), manifest.display ?? '');
  check('icons of 192 px and 512 px', sizes.includes('192x192') && sizes.includes('512x512'), sizes.join(', '));
  check(
    'a maskable icon',
    (manifest.icons ?? []).some((icon) => icon.purpose?.includes('maskable')),
  );
  check('does not prefer a store app', manifest.prefer_related_applications !== true);
  return manifest;
}

async function main() {
  const stack = await startBenchStack(join(__dirname, '..'), LIGHTHOUSE_STACK);
  // A persistent profile: Chromium never offers to install from an incognito context.
  const profile = mkdtempSync(join(tmpdir(), 'spark-pwa-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    // The client app registers the service worker; the public pages do not (register-service-worker.ts).
    await page.goto(`${stack.baseUrl}/app`, { waitUntil: 'networkidle' });
    const manifest = await checkManifest(page, stack.baseUrl);

    // Expressions as strings: the server tsconfig has no DOM types.
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    await page.reload({ waitUntil: 'networkidle' });
    const controlled = String(await page.evaluate("navigator.serviceWorker.controller?.scriptURL ?? ''"));
    check('a service worker is registered and controls the page', controlled !== '', controlled);

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    check(
      "Chromium's own installability check reports no error",
      installabilityErrors.length === 0,
      installabilityErrors.map((error) => error.errorId).join(', '),
    );

    await context.setOffline(true);
    const startUrl = new URL(manifest.start_url ?? '/', stack.baseUrl).href;
    const offline = await page.goto(startUrl, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('#root > *', { timeout: 10_000 }).catch(() => undefined);
    const rendered = Number(await page.evaluate("document.querySelector('#root')?.childElementCount ?? 0"));
    check(
      'start_url answers 200 from the service worker offline and renders',
      offline?.status() === 200 && (offline?.fromServiceWorker() ?? false) && rendered > 0,
      `${startUrl}: HTTP ${offline?.status()}, from service worker ${offline?.fromServiceWorker()}, now at ${new URL(page.url()).pathname}`,
    );
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await stack.stop();
  }
  for (const { name, passed, detail } of checks) console.log(`${passed ? 'pass' : 'FAIL'}  ${name}${detail ? `  (${detail})` : ''}`);
  console.log(`${checks.filter((c) => c.passed).length} passed, ${checks.filter((c) => !c.passed).length} failed`);
  if (checks.some((c) => !c.passed)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
