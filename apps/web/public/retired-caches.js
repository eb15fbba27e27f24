// Imported by the generated service worker (vite.config.ts, workbox.importScripts). Earlier versions kept the client
// home's answer (GET /api/progress/me) in this cache, keyed by URL alone, so it outlived sign-out and could be served
// to the next person on the device. Workbox's cleanupOutdatedCaches only removes old precaches, so this deletes it.
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.delete('spark-home'));
});
