/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';

/**
 * The client app is the installable, offline-first part of the product, so it registers the service
 * worker (which then precaches the app shell and serves /app offline); the public pages do not.
 */
export function registerServiceWorker(): void {
  if ('serviceWorker' in navigator) void registerSW({ immediate: true });
}
