// Compiles every server-side TypeScript file (apps except web, libs, scripts, bench) into dist/
// with swc, rewriting the @spark/* path aliases to relative requires. Type checking is
// `npm run typecheck`; this step only emits, so it takes seconds. Given folders (`node scripts/build-node.mjs
// apps/gateway`, as each project's Nx `build` target runs it), it compiles only those.
import { transformFile } from '@swc/core';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
// The SPA is built by Vite and the browser tests run under jest: neither belongs in dist/.
const skip = new Set(['node_modules', 'dist', 'apps/web', 'apps/web-e2e'].map((path) => join(root, path)));
const isSource = (name) => name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec|d)\.ts$/.test(name);

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.has(path) || entry.name === 'node_modules') continue;
    if (entry.isDirectory()) yield* sources(path);
    else if (isSource(entry.name)) yield path;
  }
}

const libs = (await readdir(join(root, 'libs'))).filter((name) => !name.startsWith('.'));
const paths = Object.fromEntries(libs.map((lib) => [`@spark/${lib}`, [`libs/${lib}/src/index.ts`]]));

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
    baseUrl: root,
    paths,
  },
  module: { type: 'commonjs' },
  // Beside each file rather than inline: Node holds every loaded module's source text for as long as it runs, so an
  // inline map would be held too, whether or not a stack is ever mapped. Stack traces need no source text in the map.
  sourceMaps: true,
  inlineSourcesContent: false,
};

const chosen = process.argv.slice(2);
const tops = chosen.length > 0 ? chosen : ['apps', 'libs', 'scripts', 'bench'];
// A whole build starts from an empty dist/apps and dist/libs, so a deleted source leaves no stale output.
for (const stale of chosen.length > 0 ? chosen : ['apps', 'libs']) await rm(join(out, stale), { recursive: true, force: true });
const jobs = [];
for (const top of tops) {
  for await (const file of sources(join(root, top))) {
    const output = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    // The map names its source relative to itself, so stack traces point at the right file wherever dist/ is deployed.
    const sourceFileName = relative(dirname(output), file);
    jobs.push(
      transformFile(file, { ...options, filename: file, sourceFileName }).then(async ({ code, map }) => {
        await mkdir(dirname(output), { recursive: true });
        await writeFile(output, `${code}\n//# sourceMappingURL=${basename(output)}.map\n`);
        await writeFile(`${output}.map`, map);
      }),
    );
  }
}
await Promise.all(jobs);
console.log(`build-node: ${jobs.length} files → dist/`);
