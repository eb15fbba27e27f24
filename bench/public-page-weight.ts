// JavaScript a phone downloads to open a public page, gzipped, measured in Chromium against the started
// product (issue 3 target for `/`: ≤ 120 KiB). `npm start` first, then:
//   node -r @swc-node/register bench/public-page-weight.ts [base URL, default http://localhost:8080]
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:8080';
const pages = ['/', '/interest', '/products', '/me', '/evolutions', '/donate'];

async function main() {
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
