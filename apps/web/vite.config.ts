import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Writes .br and .gz twins of every text asset so the gateway can send them precompressed (an
// uncompressed entry chunk alone cost ~1.5 s of first paint on Lighthouse's throttled phone).
function precompressedTwins(): Plugin {
  let outDir = '';
  return {
    name: 'spark-precompressed-twins',
    apply: 'build',
    configResolved: (config) => void (outDir = config.build.outDir),
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((name) => /\.(js|css|html|svg|webmanifest|json)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const source = await readFile(join(outDir, name));
          const brotli = await promisify(brotliCompress)(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
          await writeFile(join(outDir, `${name}.br`), brotli);
          await writeFile(join(outDir, `${name}.gz`), await promisify(gzip)(source, { level: 9 }));
        }),
      );
    },
  };
}

// jest exports NODE_ENV=test, and e2e global-setup builds from inside jest: without this the
// bundle would silently be React's development build.
if (process.argv.includes('build') && process.env.NODE_ENV !== 'production') process.env.NODE_ENV = 'production';
// One year for the browser and the prerender builds of one `npm run build:web` (the footer hydrates from it).
process.env.VITE_BUILD_YEAR ??= String(new Date().getFullYear());

// `vite build --ssr` builds only entry-server.tsx, for scripts/prerender-web.mjs: no CSS, PWA or twins.
export default defineConfig(({ isSsrBuild }) => ({
  root: fromHere('.'),
  publicDir: isSsrBuild ? false : 'public',
  plugins: isSsrBuild
    ? [react()]
    : [
        react(),
        tailwindcss(),
        // The client app is an installable PWA: the shell is precached. No API answer is cached here: a cache keyed by
        // URL alone would serve one person's data to the next on the device. The home opens offline from the app's own
        // snapshot, which records whose it is (use-home.ts).
        VitePWA({
          registerType: 'autoUpdate',
          // Registered by the client app itself (register-service-worker.ts), not by every page: a visitor
          // reading the landing page should not download the whole app's precache on their data plan.
          injectRegister: false,
          includeAssets: ['favicon.svg'],
          manifest: {
            name: 'The Spark',
            short_name: 'Spark',
            description: 'Capture daily sparks, build streaks and follow your evolution with your coach.',
            start_url: '/app',
            scope: '/',
            display: 'standalone',
            background_color: '#17143d',
            theme_color: '#1e1b4b',
            icons: [
              { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
              { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
              { src: '/pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
            ],
          },
          workbox: {
            // Reminder notifications: shown and opened by public/push-handler.js. The caches earlier versions
            // filled with API answers: deleted by public/retired-caches.js.
            importScripts: ['/push-handler.js', '/retired-caches.js'],
            globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
            globIgnores: ['og-image.png', 'ditl-slides/**', 'prerendered/**', 'push-handler.js', 'retired-caches.js'],
            navigateFallback: '/index.html',
            // Pages the gateway serves itself, not the app: the queue dashboard spends its ticket there.
            navigateFallbackDenylist: [/^\/api\//, /^\/health/, /^\/metrics/, /^\/admin\/queues(\/|\?|$)/],
          },
        }),
        precompressedTwins(),
      ],
  resolve: {
    alias: { '@spark/contracts': fromHere('../../libs/contracts/src/index.ts') },
  },
  build: isSsrBuild
    ? {
        outDir: fromHere('../../dist/web-ssr'),
        emptyOutDir: true,
        // The repository is CommonJS by default; .mjs keeps Node loading this output as ES modules.
        rollupOptions: {
          // Only the PWA plugin of the browser build provides it; the server never runs effects anyway.
          external: ['virtual:pwa-register'],
          output: { entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
        },
      }
    : {
        outDir: fromHere('../../dist/web'),
        emptyOutDir: true,
        // .vite/manifest.json: which chunks each screen needs, for the prerendered pages' preload links.
        manifest: true,
        // The budget is per route (landing ≤ 120 KiB gzipped), so warn early on any big chunk.
        chunkSizeWarningLimit: 250,
      },
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
}));
