// The Lighthouse targets for every public page (mobile emulation, Lighthouse's default throttling): performance
// ≥ 95, accessibility, best practices and SEO 100, against the production build served by the product started
// from dist/ on its own ports:
//   npm run build && node -r @swc-node/register bench/lighthouse.ts
// Lighthouse 13.5.0 runs through npx, not as a dependency of the product (LIGHTHOUSE_BIN overrides); BENCH_RUNS
// (default 3) runs per page, the median performance run is reported. Full JSON reports go to .data/bench/.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LIGHTHOUSE_STACK, startBenchStack } from './product-stack';
import { PUBLIC_PAGES, repositoryRoot } from './support';

const root = repositoryRoot;
const reports = join(root, '.data', 'bench');
const runs = Number(process.env.BENCH_RUNS ?? 3);
// BENCH_PAGES="/ /log" measures only those.
const pages = process.env.BENCH_PAGES?.split(' ').filter(Boolean) ?? PUBLIC_PAGES;
const targets = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
type Category = keyof typeof targets;

interface Report {
  categories: Record<Category, { score: number }>;
  audits: Record<string, { numericValue?: number; displayValue?: string }>;
}

/** One Lighthouse run; once more when Chromium's trace missed the navigation, which Lighthouse itself asks for. */
async function lighthouse(url: string, outputPath: string): Promise<Report> {
  return lighthouseOnce(url, outputPath).catch((error: unknown) => {
    if (!String(error).includes('NO_NAVSTART')) throw error;
    return lighthouseOnce(url, outputPath);
  });
}

async function lighthouseOnce(url: string, outputPath: string): Promise<Report> {
  const [command, ...prefix] = process.env.LIGHTHOUSE_BIN ? [process.env.LIGHTHOUSE_BIN] : ['npx', '--yes', 'lighthouse@13.5.0'];
  await promisify(execFile)(
    command as string,
    [
      ...prefix,
      url,
      '--quiet',
      '--output=json',
      `--output-path=${outputPath}`,
      `--only-categories=${Object.keys(targets).join(',')}`,
      '--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking',
    ],
    { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(readFileSync(outputPath, 'utf8')) as Report;
}

const score = (report: Report, category: Category) => Math.round(report.categories[category].score * 100);
const metric = (report: Report, audit: string) => report.audits[audit]?.displayValue ?? '?';

async function main() {
  mkdirSync(reports, { recursive: true });
  const stack = await startBenchStack(root, LIGHTHOUSE_STACK);
  try {
    for (const path of pages) {
      const results: Report[] = [];
      for (let run = 0; run < runs; run++) {
        const name = `lighthouse${path.replace(/\//g, '-') || '-'}${run}.json`.replace('--', '-');
        results.push(await lighthouse(`${stack.baseUrl}${path}`, join(reports, name)));
      }
      results.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
      const median = results[Math.floor(results.length / 2)] as Report;
      const verdicts = (Object.keys(targets) as Category[]).map((category) => {
        const value = score(median, category);
        return `${category} ${value}${value >= targets[category] ? '' : ` (MISSED, target ${targets[category]})`}`;
      });
      const performanceRuns = results.map((report) => score(report, 'performance')).join('/');
      console.log(`${path.padEnd(10)} ${verdicts.join(', ')}; performance runs ${performanceRuns}`);
      console.log(
        `${''.padEnd(10)} FCP ${metric(median, 'first-contentful-paint')}, LCP ${metric(median, 'largest-contentful-paint')}, ` +
          `TBT ${metric(median, 'total-blocking-time')}, CLS ${metric(median, 'cumulative-layout-shift')}, SI ${metric(median, 'speed-index')}`,
      );
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
