import { isPairSignature, pairSignature, type SigningKeys } from '@spark/config';
import { mayCall, type ServiceName, type SigningApp, serviceOf, signingKeyName } from '@spark/contracts';
import type { RequestEntry } from './wire-format';

// What a request is: its pattern, its request id and reply list (so an answer cannot be sent elsewhere) and its data.
const headerOf = (entry: RequestEntry) => `${entry.pattern}\n${entry.id ?? ''}\n${entry.replyTo ?? ''}\n`;

const keyNameOf = (service: string, caller: string) => signingKeyName({ kind: 'bus', service: service as ServiceName, caller: caller as SigningApp });

/** The entry with its sender's name and signature, made with the key of the pair (its pattern's service, the sender). */
export function signedEntry(keys: SigningKeys, caller: string, entry: RequestEntry): RequestEntry {
  const name = keyNameOf(serviceOf(entry.pattern), caller);
  const signature = pairSignature(keys, name, headerOf(entry), entry.data);
  if (!signature) throw new Error(`No key to sign ${entry.pattern} as ${caller} (SIGNING_KEYS needs ${name})`);
  return { ...entry, caller, signature };
}

/**
 * Why `service` refuses an entry, or undefined when its sender may send its pattern (`mayCall`) and signed it with a
 * key of their pair. Whoever can add to a service's stream could have written anything in it.
 */
export function senderRefusal(keys: SigningKeys, service: string, entry: RequestEntry): string | undefined {
  const { caller, signature } = entry;
  if (caller === undefined || signature === undefined) return 'an unsigned request';
  if (!mayCall(caller, entry.pattern)) return `${caller} may not send ${entry.pattern}`;
  return isPairSignature(keys, keyNameOf(service, caller), headerOf(entry), entry.data, signature) ? undefined : `not signed by ${caller}`;
}
