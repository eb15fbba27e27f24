import { createHash, randomBytes } from 'node:crypto';

// Crockford base32: no I, L, O or U, so a code read aloud or retyped is not misread.
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `SPARK-XXXX-XXXX-XXXX-XXXX-XXXX`: 20 characters of 5 bits each, 100 random bits. */
export function newAccessCode(random: (size: number) => Buffer = randomBytes): string {
  const characters = [...random(20)].map((byte) => alphabet[byte % 32]);
  const groups = [0, 4, 8, 12, 16].map((start) => characters.slice(start, start + 4).join(''));
  return `SPARK-${groups.join('-')}`;
}

/** How a code is stored and looked up: its SHA-256, over the normalised form the deck form produces. */
export function hashAccessCode(code: string): Buffer {
  return createHash('sha256').update(code).digest();
}
