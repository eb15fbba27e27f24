import { isPairSignature, pairSignature, type SigningKeys } from '@spark/config';
import { type ServiceName, signingKeyName } from '@spark/contracts';

// The gateway's and a service's clocks may differ by this much.
const CLOCK_SKEW_MS = 60_000;

/**
 * What the gateway states to one app on behalf of a person whose token it verified (an approval, a grant), for an app
 * that reaches it only through another: signed with the key the gateway signs its requests to that service with, or
 * for the notifier, which no request of the gateway's reaches, with the key of its statements to it; under a header no
 * bus request can have (a request's begins with a pattern name), so neither passes for the other.
 */
export function gatewayStatement(reader: ServiceName | 'notifier', header: string) {
  const pair = signingKeyName(reader === 'notifier' ? { kind: 'statement', reader } : { kind: 'bus', service: reader, caller: 'gateway' });
  return {
    sign(keys: SigningKeys, body: string): string {
      const signature = pairSignature(keys, pair, header, body);
      if (!signature) throw new Error(`No key to sign ${header.trim()} (SIGNING_KEYS needs ${pair})`);
      return signature;
    },
    isSignedBy(keys: SigningKeys, body: string, signature: string): boolean {
      return isPairSignature(keys, pair, header, body, signature);
    },
  };
}

/** Whether a statement made at `madeAt` (the gateway's clock) still holds at `now` (the reader's clock). */
export const isCurrentStatement = (madeAt: number, now: number, validMs: number): boolean => madeAt <= now + CLOCK_SKEW_MS && madeAt >= now - validMs;
