import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';
import type { SignatureV4 } from '@smithy/signature-v4';

type Sha256Constructor = ConstructorParameters<typeof SignatureV4>[0]['sha256'];
type Secret = ConstructorParameters<Sha256Constructor>[0];

const keyOf = (secret: NonNullable<Secret>): KeyObject =>
  typeof secret === 'string'
    ? createSecretKey(secret, 'utf8')
    : createSecretKey(ArrayBuffer.isView(secret) ? new Uint8Array(secret.buffer, secret.byteOffset, secret.byteLength) : new Uint8Array(secret));

/**
 * SHA-256 and HMAC-SHA-256 for the SDK's SigV4 signer, like the SDK's own Node hash, except that each HMAC is keyed
 * with a KeyObject: Node prepares a key given as bytes several times slower than a KeyObject made from the same bytes
 * (`bench/crypto-keys.ts`), and every signature makes two HMACs.
 */
export class KeyedSha256 {
  private readonly key?: KeyObject;
  private hash: Hash | Hmac;

  constructor(secret?: Secret) {
    this.key = secret === undefined ? undefined : keyOf(secret);
    this.hash = this.start();
  }

  update(data: Uint8Array): void {
    this.hash.update(data);
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.hash.digest());
  }

  reset(): void {
    this.hash = this.start();
  }

  private start(): Hash | Hmac {
    return this.key ? createHmac('sha256', this.key) : createHash('sha256');
  }
}
