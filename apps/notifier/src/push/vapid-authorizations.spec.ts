import { createPublicKey, verify } from 'node:crypto';
import webpush from 'web-push';
import { VapidAuthorizations } from './vapid-authorizations';

const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:team@spark.test' };
const fromBase64url = (text: string) => Buffer.from(text, 'base64url');

/** The token's claims, after checking its ES256 signature with the VAPID public key (an uncompressed P-256 point). */
function verifiedClaims(header: string): { aud: string; exp: number; sub: string } {
  const [, token, publicKey] = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header) ?? [];
  expect(publicKey).toBe(keys.publicKey);
  const point = fromBase64url(keys.publicKey);
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const [head = '', payload = '', signature = ''] = (token ?? '').split('.');
  expect(verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, fromBase64url(signature))).toBe(true);
  return JSON.parse(fromBase64url(payload).toString('utf8'));
}

describe('VAPID authorizations', () => {
  let clock = Date.parse('2026-11-27T06:00:00Z');
  const authorizations = new VapidAuthorizations(keys, () => clock);

  it('signs one token per push service and reuses it for every notification to that service', () => {
    const first = authorizations.for('https://fcm.googleapis.com/fcm/send/device-a');
    expect(authorizations.for('https://fcm.googleapis.com/fcm/send/device-b')).toBe(first);
    expect(verifiedClaims(first)).toEqual({ aud: 'https://fcm.googleapis.com', exp: clock / 1000 + 12 * 3600, sub: keys.subject });

    const other = authorizations.for('https://updates.push.services.mozilla.com/wpush/v2/device-c');
    expect(other).not.toBe(first);
    expect(verifiedClaims(other).aud).toBe('https://updates.push.services.mozilla.com');
  });

  it('signs a new token an hour before the old one expires', () => {
    const before = authorizations.for('https://fcm.googleapis.com/fcm/send/device-a');
    clock += 11 * 3600 * 1000 - 1;
    expect(authorizations.for('https://fcm.googleapis.com/fcm/send/device-a')).toBe(before);
    clock += 1;
    const renewed = authorizations.for('https://fcm.googleapis.com/fcm/send/device-a');
    expect(renewed).not.toBe(before);
    expect(verifiedClaims(renewed).exp).toBe(clock / 1000 + 12 * 3600);
  });
});
