/**
 * Whether a push subscription's endpoint is at one of the allowed push services. The notifier posts each reminder to
 * that address, so an address a client chose freely would let them aim Spark's requests anywhere (SSRF): the
 * progress-service checks it when a subscription is stored, and the notifier again before each request, whatever
 * queued the job. An allowed origin is exact (`https://fcm.googleapis.com`) or covers subdomains (`https://*.notify.windows.com`).
 */
export function pushEndpointAllowed(endpoint: string, allowedOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return allowedOrigins.some((origin) => {
    const wildcard = /^(https?:)\/\/\*\.([^/]+)$/.exec(origin);
    if (!wildcard) return url.origin === origin;
    const [, protocol, parent] = wildcard;
    return url.protocol === protocol && url.port === '' && url.hostname.endsWith(`.${parent}`);
  });
}
