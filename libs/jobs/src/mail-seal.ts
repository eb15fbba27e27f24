import { createPublicKey, type KeyObject } from 'node:crypto';
import { emailSchema, type JobPayload, type MailSecrets, type OpenedMailJob, QUEUES, type SealedMailJobName, sealedMailSecrets } from '@spark/contracts';
import { UnrecoverableError } from 'bullmq';
import { CompactEncrypt, calculateJwkThumbprint, compactDecrypt, decodeProtectedHeader, errors } from 'jose';
import { z } from 'zod';

// ECDH-ES on X25519 with AES-256-GCM: a fresh key agreement per seal, so a producer holding only the public key can
// seal but never open, not even what it sealed itself.
const KEY_AGREEMENT = 'ECDH-ES';
const CONTENT_ENCRYPTION = 'A256GCM';

/**
 * What a seal holds: the secrets, and the job and recipient they were sealed for. A service that may write to the mail
 * queue could otherwise copy someone's sealed link into a job addressed to itself; the notifier opens a seal only for
 * the job and the address it names.
 */
const envelopeSchema = z.object({ job: z.string(), to: z.string(), secrets: z.unknown() });

const keyIdOf = (publicKey: KeyObject) => calculateJwkThumbprint(publicKey.export({ format: 'jwk' }));

/** Seals the secrets of a mail job for the notifier (the services that queue such jobs hold only its public key). */
export class MailSealer {
  private readonly keyId: Promise<string>;

  constructor(private readonly publicKey: KeyObject) {
    this.keyId = keyIdOf(publicKey);
  }

  async seal<N extends SealedMailJobName>(job: N, to: string, secrets: MailSecrets<N>): Promise<string> {
    // As the job's own schema will store the address, so the notifier's comparison holds.
    const envelope = { job, to: emailSchema.parse(to), secrets: sealedMailSecrets[job].parse(secrets) };
    return new CompactEncrypt(Buffer.from(JSON.stringify(envelope)))
      .setProtectedHeader({ alg: KEY_AGREEMENT, enc: CONTENT_ENCRYPTION, kid: await this.keyId })
      .encrypt(this.publicKey);
  }
}

/**
 * Opens sealed mail jobs with the notifier's private keys. A seal that does not open (another key, altered, or made
 * for another job or recipient) fails its job for good: a retry would not open it either.
 */
export class MailOpener {
  private constructor(private readonly keys: ReadonlyMap<string, KeyObject>) {}

  /** `privateKeys`: the current key first. */
  static async for(privateKeys: readonly KeyObject[]): Promise<MailOpener> {
    const entries = await Promise.all(privateKeys.map(async (key) => [await keyIdOf(createPublicKey(key)), key] as const));
    if (entries.length === 0) throw new Error('MailOpener needs at least one private key');
    return new MailOpener(new Map(entries));
  }

  async open<N extends SealedMailJobName>(job: N, data: JobPayload<typeof QUEUES.mail, N>): Promise<OpenedMailJob<N>> {
    const { sealed, ...rest } = data;
    try {
      const envelope = envelopeSchema.parse(JSON.parse(await this.decrypt(sealed)));
      if (envelope.job !== job || envelope.to !== data.email) throw new Error('sealed for another job or recipient');
      return { ...rest, ...sealedMailSecrets[job].parse(envelope.secrets) } as OpenedMailJob<N>;
    } catch (error) {
      const reason = error instanceof errors.JOSEError ? error.code : error instanceof Error ? error.message : String(error);
      throw new UnrecoverableError(`${QUEUES.mail}/${job}: the seal does not open (${reason})`);
    }
  }

  private async decrypt(sealed: string): Promise<string> {
    const key = this.keys.get(decodeProtectedHeader(sealed).kid ?? '');
    if (!key) throw new Error('sealed for a key the notifier does not hold');
    const { plaintext } = await compactDecrypt(sealed, key, { keyManagementAlgorithms: [KEY_AGREEMENT], contentEncryptionAlgorithms: [CONTENT_ENCRYPTION] });
    return Buffer.from(plaintext).toString('utf8');
  }
}
