import { Hash } from '@smithy/core/serde';
import { KeyedSha256 } from './keyed-sha256';

const hex = async (hash: KeyedSha256 | Hash) => Buffer.from(await hash.digest()).toString('hex');
const bytes = (text: string) => new TextEncoder().encode(text);

function digestOf(secret: string | Uint8Array | ArrayBuffer | undefined, ...chunks: Uint8Array[]): Promise<string> {
  const hash = new KeyedSha256(secret);
  for (const chunk of chunks) hash.update(chunk);
  return hex(hash);
}

describe('KeyedSha256', () => {
  it('hashes as SHA-256 without a secret', async () => {
    await expect(digestOf(undefined, bytes('abc'))).resolves.toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  // RFC 4231, test cases 1 and 2.
  it('keys an HMAC with bytes or with a string', async () => {
    await expect(digestOf(new Uint8Array(20).fill(0x0b), bytes('Hi There'))).resolves.toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
    await expect(digestOf('Jefe', bytes('what do ya '), bytes('want for nothing?'))).resolves.toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('reads only the bytes a view shows, and takes a whole ArrayBuffer', async () => {
    const surrounded = new Uint8Array([0xff, ...bytes('Jefe'), 0xff]);
    const expected = await digestOf('Jefe', bytes('what do ya want for nothing?'));
    await expect(digestOf(surrounded.subarray(1, 5), bytes('what do ya want for nothing?'))).resolves.toBe(expected);
    await expect(digestOf(bytes('Jefe').buffer, bytes('what do ya want for nothing?'))).resolves.toBe(expected);
  });

  it('starts over with the same key after reset', async () => {
    const hash = new KeyedSha256('Jefe');
    hash.update(bytes('something else'));
    hash.reset();
    hash.update(bytes('what do ya want for nothing?'));
    await expect(hex(hash)).resolves.toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('derives a SigV4 signing key as the SDK’s own hash does', async () => {
    const derive = async (Sha256: new (secret?: string | Uint8Array) => KeyedSha256 | Hash) => {
      let key: string | Uint8Array = 'AWS4wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
      for (const part of ['20261127', 'eu-central-1', 's3', 'aws4_request']) {
        const hash: KeyedSha256 | Hash = new Sha256(key);
        hash.update(bytes(part));
        key = await hash.digest();
      }
      return Buffer.from(key).toString('hex');
    };
    await expect(derive(KeyedSha256)).resolves.toBe(await derive(Hash.bind(null, 'sha256')));
  });
});
