// JavaScript a phone downloads to open each public page on a first visit, gzipped, measured in Chromium
// (target: ≤ 120 KiB per page). Against a running product, or, without a URL, the production build started
// from dist/ on the Lighthouse benchmark's ports:
//   npm run build && node -r @swc-node/register bench/public-page-weight.ts [base URL]
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { LIGHTHOUSE_STACK, startBenchStack } from './product-stack';

const pages = ['/', '/interest', '/products', '/me', '/evolutions', '/signin', '/donate', '/log'];

async function main() {
  const stack = process.argv[2] ? undefined : await startBenchStack(join(__dirname, '..'), LIGHTHOUSE_STACK);
  const base = process.argv[2] ?? stack?.baseUrl ?? '';
  try {
    await measure(base);
  } finally {
    await stack?.stop();
  }
}

async function measure(base: string) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    for (const path of pages) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
      const page = await context.newPage();
      const scripts: Promise<number>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => gzipSync(body).length));
      });
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      const sizes = await Promise.all(scripts);
      const kib = sizes.reduce((sum, size) => sum + size, 0) / 1024;
      console.log(`${path.padEnd(12)} ${sizes.length} scripts, ${kib.toFixed(1)} KiB gzipped`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
