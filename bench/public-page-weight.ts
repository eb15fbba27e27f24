// JavaScript a phone downloads to open each public page on a first visit, gzipped, measured in Chromium
// (the target is in docs/benchmarks.md). Against a running product, or, without a URL, the production build started
// from dist/ on the Lighthouse benchmark's ports:
//   npm run build && node -r @swc-node/register bench/public-page-weight.ts [base URL] [--scripts]
// --scripts lists each page's scripts by size, to see what a page pulls in.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { LIGHTHOUSE_STACK, startBenchStack } from './product-stack';
import { recordFigure } from './summary';
import { PUBLIC_PAGES as pages, repositoryRoot } from './support';

const listScripts = process.argv.includes('--scripts');
const baseUrlArgument = process.argv.slice(2).find((argument) => !argument.startsWith('--'));

async function main() {
  const stack = baseUrlArgument ? undefined : await startBenchStack(repositoryRoot, LIGHTHOUSE_STACK);
  const base = baseUrlArgument ?? stack?.baseUrl ?? '';
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
      const scripts: Promise<{ name: string; gzipped: number }>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        const name = new URL(response.url()).pathname;
        scripts.push(response.body().then((body) => ({ name, gzipped: gzipSync(body).length })));
      });
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      const loaded = (await Promise.all(scripts)).sort((a, b) => b.gzipped - a.gzipped);
      const kib = loaded.reduce((sum, script) => sum + script.gzipped, 0) / 1024;
      console.log(`${path.padEnd(12)} ${loaded.length} scripts, ${kib.toFixed(1)} KiB gzipped`);
      recordFigure({ measure: `page weight ${path}`, figure: `${kib.toFixed(1)} KiB`, target: '≤ 120 KiB', met: kib <= 120 });
      if (listScripts) for (const { name, gzipped } of loaded) console.log(`  ${(gzipped / 1024).toFixed(1).padStart(6)} ${name}`);
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
