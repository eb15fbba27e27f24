import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

// A VAPID token may live a day at most; it is renewed well before it ends.
const LIFETIME_SECONDS = 12 * 3600;
const RENEW_BEFORE_END_MS = 3600 * 1000;
// Push services are a short allowlist, but one vendor spreads its endpoints over many hosts.
const MAX_AUDIENCES = 1000;

/**
 * The `Authorization` header of a push request, one signed token per push service, reused until an hour before it
 * expires: VAPID lets a token serve every request to its audience, where web-push would sign one (an ECDSA
 * signature) per notification. Why the standard allows it: docs/decisions.md.
 */
export class VapidAuthorizations {
  private readonly byAudience = new Map<string, { header: string; renewAt: number }>();

  constructor(
    private readonly keys: VapidKeys,
    private readonly now: () => number = Date.now,
  ) {}

  for(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const cached = this.byAudience.get(audience);
    if (cached && this.now() < cached.renewAt) return cached.header;
    const expiresAt = Math.floor(this.now() / 1000) + LIFETIME_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(audience, this.keys.subject, this.keys.publicKey, this.keys.privateKey, 'aes128gcm', expiresAt);
    if (this.byAudience.size >= MAX_AUDIENCES) this.byAudience.clear();
    this.byAudience.set(audience, { header: Authorization, renewAt: expiresAt * 1000 - RENEW_BEFORE_END_MS });
    return Authorization;
  }
}
