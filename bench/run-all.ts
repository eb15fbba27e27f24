// `npm run bench`: every benchmark, one after the other, then one table of their headline figures (each benchmark
// hands them over with recordFigure, bench/summary.ts). After a build (`npm run bench` builds first). `--quick`
// shortens the timed phases (BENCH_SECONDS=5) for a smoke run whose figures are not the record.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure } from './summary';

const root = join(__dirname, '..', '..');
const quick = process.argv.includes('--quick');

interface Benchmark {
  name: string;
  script: string;
  env?: NodeJS.ProcessEnv;
}

const benchmarks: Benchmark[] = [
  // The monolith baseline runs in the same process tree, in the same run: the ratio is the figure.
  { name: 'lead submission', script: 'lead-submission.js' },
  { name: 'coach dashboard', script: 'coach-dashboard.js' },
  { name: 'capture', script: 'spark-capture.js' },
  { name: 'DITL queue', script: 'ditl-queue.js' },
  { name: 'DITL planner', script: 'ditl-planner.js' },
  { name: 'page weight', script: 'public-page-weight.js' },
  { name: 'reminders', script: 'reminders.js', env: quick ? { BENCH_CLIENTS: '10000', BENCH_WINDOW_MINUTES: '2' } : {} },
];

function run(benchmark: Benchmark, summaryFile: string): Promise<number | null> {
  const env = { ...process.env, ...benchmark.env, BENCH_SUMMARY_FILE: summaryFile, ...(quick ? { BENCH_SECONDS: '5' } : {}) };
  const child = spawn(process.execPath, [join(root, 'dist', 'bench', benchmark.script)], { cwd: root, env, stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const cell = (text: string) => text.replaceAll('|', '\\|');

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'spark-bench-'));
  const rows: string[] = [];
  const started = performance.now();
  const loadBefore = load();
  let failed = 0;
  for (const benchmark of benchmarks) {
    const summaryFile = join(directory, `${benchmark.script}.jsonl`);
    writeFileSync(summaryFile, '');
    const began = performance.now();
    process.stdout.write(`\n=== ${benchmark.name} (dist/bench/${benchmark.script})\n`);
    const code = await run(benchmark, summaryFile);
    const seconds = ((performance.now() - began) / 1000).toFixed(0);
    const figures = readFileSync(summaryFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Figure);
    if (code !== 0) failed += 1;
    if (code !== 0 || figures.length === 0) rows.push(`| ${benchmark.name} | (exited with ${code}, ${seconds} s) | | | |`);
    for (const figure of figures) {
      const verdict = figure.met === undefined ? '' : figure.met ? 'met' : '**missed**';
      rows.push(`| ${benchmark.name} | ${cell(figure.measure)} | ${cell(figure.figure)} | ${cell(figure.target ?? '')} | ${verdict} |`);
    }
  }
  rmSync(directory, { recursive: true, force: true });
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  process.stdout.write(
    [
      '',
      `All benchmarks${quick ? ' (--quick)' : ''}: ${minutes} min, load average ${loadBefore} before, ${load()} after`,
      '',
      '| benchmark | measure | figure | target | |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
