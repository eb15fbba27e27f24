// The JavaScript a phone downloads to open /app: the entry chunk plus the client-home chunk and every
// chunk they import statically, gzipped. Run after `npm run build`:
//   node -r @swc-node/register bench/spark-app-bundle.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const assets = join(__dirname, '..', 'dist', 'web', 'assets');
const html = readFileSync(join(__dirname, '..', 'dist', 'web', 'index.html'), 'utf8');
const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
const home = readdirSync(assets).find((name) => name.startsWith('client-home-page-') && name.endsWith('.js'));
if (!entry || !home) throw new Error('build first: npm run build');

const seen = new Set<string>();
function visit(name: string): void {
  if (seen.has(name)) return;
  seen.add(name);
  const code = readFileSync(join(assets, name), 'utf8');
  // Static imports only: lazy routes the home never opens are not downloaded.
  for (const match of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[^"'()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) visit(match[1] as string);
}
visit(entry);
visit(home);
const total = [...seen].reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length, 0);
process.stdout.write(`/app JS: ${seen.size} chunks, ${(total / 1024).toFixed(1)} KiB gzipped (budget 180 KiB)\n`);
