// Compiles every server-side TypeScript file (apps except web, libs, scripts, bench) into dist/
// with swc, rewriting the @spark/* path aliases to relative requires. Type checking is
// `npm run typecheck`; this step only emits, so it takes seconds. Given folders (`node scripts/build-node.mjs
// apps/gateway`, as each project's Nx `build` target runs it), it compiles only those.
import { transformFile } from '@swc/core';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
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
  sourceMaps: 'inline',
};

const chosen = process.argv.slice(2);
const tops = chosen.length > 0 ? chosen : ['apps', 'libs', 'scripts', 'bench'];
// A whole build starts from an empty dist/apps and dist/libs, so a deleted source leaves no stale output.
for (const stale of chosen.length > 0 ? chosen : ['apps', 'libs']) await rm(join(out, stale), { recursive: true, force: true });
const jobs = [];
for (const top of tops) {
  for await (const file of sources(join(root, top))) {
    jobs.push(
      transformFile(file, { ...options, filename: file }).then(async ({ code }) => {
        const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, code);
      }),
    );
  }
}
await Promise.all(jobs);
console.log(`build-node: ${jobs.length} files → dist/`);
