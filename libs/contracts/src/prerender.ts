/**
 * Prerendered pages (apps/web/src/entry-server.tsx) carry this origin in their absolute links
 * (og:url, og:image, canonical); the gateway replaces it with its PUBLIC_URL's origin when it loads them.
 */
export const PRERENDER_ORIGIN_PLACEHOLDER = 'https://spark-public-origin.invalid';
