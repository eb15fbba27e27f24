// Imported by the generated service worker (vite.config.ts, workbox.importScripts): shows a reminder sent by the
// notifier (apps/notifier/src/push/push-sender.ts) and opens its page, Quick Capture, when it is tapped.
self.addEventListener('push', (event) => {
  let message = { title: 'Spark', body: '', url: '/app' };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without a readable payload still shows Spark's name, as browsers require of a visible push.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, { body: message.body, icon: '/pwa-192.png', badge: '/pwa-192.png', tag: 'spark-reminder', data: { url: message.url } }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only Spark's own pages: a push naming another site (one sent with a leaked key) opens the app instead.
  const target = new URL(event.notification.data?.url ?? '/app', self.location.origin);
  const url = target.origin === self.location.origin ? target.href : new URL('/app', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      return open ? open.navigate(url).then((client) => client?.focus()) : self.clients.openWindow(url);
    }),
  );
});
