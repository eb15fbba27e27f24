import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// jest exports NODE_ENV=test, and e2e global-setup builds from inside jest: without this the
// bundle would silently be React's development build.
if (process.argv.includes('build') && process.env.NODE_ENV !== 'production') process.env.NODE_ENV = 'production';

export default defineConfig({
  root: fromHere('.'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@spark/contracts': fromHere('../../libs/contracts/src/index.ts') },
  },
  build: {
    outDir: fromHere('../../dist/web'),
    emptyOutDir: true,
    // The budget is per route (landing ≤ 120 KiB gzipped), so warn early on any big chunk.
    chunkSizeWarningLimit: 250,
  },
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
});
