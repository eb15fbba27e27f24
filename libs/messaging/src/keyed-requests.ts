import type { SigningKeys } from '@spark/config';
import { type PatternName, type ServiceName, serviceOf } from '@spark/contracts';
import { gatewayStatement } from './gateway-statements';

const HEADER = 'idempotency-key\n';
// Marks an id derived from a person's key: a request that may have run already, whose outcome is looked for first.
const KEYED = 'keyed:';

/**
 * An HMAC with the key the gateway signs its requests to the pattern's service with, over the user's id and what they
 * sent with the key: one person's key never names another's outcome, a key sent again with other input (another
 * client, other words) is another command, and whoever reads the ledger or the streams cannot tell whose key it was.
 */
const keyedDigest = (keys: SigningKeys, pattern: PatternName, userId: string, idempotencyKey: string, input: unknown) =>
  gatewayStatement(serviceOf(pattern) as ServiceName, HEADER).sign(keys, `${pattern}\n${userId}\n${idempotencyKey}\n${JSON.stringify(input) ?? ''}`);

/**
 * The id of the gateway's request for `pattern` made for `userId` under their `Idempotency-Key` with `input` (what the
 * person sent: the route's target and body): the same for every repeat of it, so the service's ledger answers a repeat
 * with the first outcome.
 */
export const keyedRequestId = (keys: SigningKeys, pattern: PatternName, userId: string, idempotencyKey: string, input: unknown): string =>
  `${KEYED}${keyedDigest(keys, pattern, userId, idempotencyKey, input)}`;

/** Whether a request (or one its handler sent on) carries an id derived from an `Idempotency-Key`. */
export const isKeyedRequestId = (requestId: string): boolean => requestId.startsWith(KEYED);

/** A UUID derived the same way, for a record a keyed command writes under an id of its own (its audit event). */
export function keyedUuid(keys: SigningKeys, pattern: PatternName, userId: string, idempotencyKey: string, input: unknown): string {
  const bytes = Buffer.from(keyedDigest(keys, pattern, userId, idempotencyKey, input), 'base64url').subarray(0, 16);
  // RFC 9562 version 8 (its bits are the application's own) and variant.
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
