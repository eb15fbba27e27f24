// After `vite build` (dist/web) and `vite build --ssr` (dist/web-ssr): renders every page marked
// `handle.prerender` into the SPA's index.html and writes dist/web/prerendered/{name}.html plus
// pages.json (path → file; a variant's path is `path?name`), which the gateway serves for those paths
// (apps/gateway/src/web/prerendered-pages.ts).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDist = join(root, 'dist', 'web');
const outDir = join(webDist, 'prerendered');

const { prerenderedPaths, renderPage } = await import(pathToFileURL(join(root, 'dist', 'web-ssr', 'entry-server.mjs')).href);
const shell = await readFile(join(webDist, 'index.html'), 'utf8');

/** Replaces exactly one match of `pattern`, so a changed index.html fails the build instead of shipping a blank page. */
function replaceOnce(html, pattern, replacement) {
  const matches = html.match(new RegExp(pattern, 'g')) ?? [];
  if (matches.length !== 1) throw new Error(`index.html: expected one ${pattern}, found ${matches.length}`);
  return html.replace(pattern, () => replacement);
}

// The stylesheet (one file, ~8 KiB compressed) goes inline: a phone paints without a second round trip.
const stylesheet = /<link rel="stylesheet" crossorigin href="\/(assets\/[\w.-]+\.css)">/;
const cssFile = shell.match(stylesheet)?.[1];
if (!cssFile) throw new Error('index.html: no stylesheet link found');
const template = replaceOnce(shell, stylesheet, `<style>${await readFile(join(webDist, cssFile), 'utf8')}</style>`);

// Vite's manifest: source file → its chunk and the chunks that chunk imports.
const manifest = JSON.parse(await readFile(join(webDist, '.vite', 'manifest.json'), 'utf8'));

/** The chunks a page's screens need, so the browser fetches them with the entry instead of after it. */
function preloadLinks(screenModules) {
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Vite manifest has no ${key}`);
    if (files.has(chunk.file) || chunk.isEntry) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  screenModules.forEach(visit);
  return [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const pages = {};
for (const path of prerenderedPaths()) {
  const page = await renderPage(path);
  let html = replaceOnce(template, /\s*<title>[^<]*<\/title>/, '');
  html = replaceOnce(html, /\s*<meta\s+name="description"[^>]*>/, '');
  html = replaceOnce(html, /<\/head>/, `  ${page.head}\n    ${preloadLinks(page.screenModules)}\n  </head>`);
  html = replaceOnce(html, /<div id="root"><\/div>/, `<div id="root">${page.body}</div>`);
  const file = `${path === '/' ? 'home' : path.slice(1).replace(/[^\w-]/g, '-')}.html`;
  await writeFile(join(outDir, file), html);
  pages[path] = file;
}
await writeFile(join(outDir, 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
console.log(`prerendered ${Object.keys(pages).length} pages: ${Object.keys(pages).join(' ')}`);
