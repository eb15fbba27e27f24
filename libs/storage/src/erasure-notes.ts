import { createHash } from 'node:crypto';
import type { ObjectStorage } from './object-storage';

/**
 * A note, kept in the bucket, that an account was erased: a database restored from a backup taken before the erasure
 * brings the account back, and the bucket is not rolled back with it. The restore step (scripts/replay-erasures.ts)
 * erases every noted account again. docs/data-rights.md, "A database restored from a backup".
 */
export interface ErasureNote {
  userId: string;
  /** The address is not kept: the restored rows hold it, and its hash finds them. */
  addressHash: string;
  /** When the erasure ran: a row under the address written later is someone else's, who took the address since. */
  erasedAt: string;
}

export const ERASURE_NOTES_PREFIX = 'erasures/';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The address as every schema compares it (trimmed, lower case), so a row typed in capitals is found too. */
export const erasureAddressHash = (email: string) => sha256(email.trim().toLowerCase());

// Keyed by a hash of the id: a listing of the bucket names no account.
const noteKey = (userId: string) => `${ERASURE_NOTES_PREFIX}${sha256(userId)}.json`;

/**
 * Notes the erasure once: a retry, an admin's late retry or a replay after a restore keeps the first note's time, or
 * a later one would make rows the address's next owner wrote before it look like the erased account's.
 */
export async function writeErasureNote(storage: ObjectStorage, subject: { userId: string; email: string }): Promise<void> {
  const earlier = await storage.open(noteKey(subject.userId));
  if (earlier) {
    earlier.body.destroy();
    return;
  }
  const note: ErasureNote = { userId: subject.userId, addressHash: erasureAddressHash(subject.email), erasedAt: new Date().toISOString() };
  await storage.put({ key: noteKey(subject.userId), body: JSON.stringify(note), contentType: 'application/json', cacheControlSeconds: 0 });
}

export async function readErasureNotes(storage: ObjectStorage): Promise<ErasureNote[]> {
  const notes: ErasureNote[] = [];
  for (const key of await storage.keysUnder(ERASURE_NOTES_PREFIX)) {
    const { userId, addressHash, erasedAt } = JSON.parse(await storage.getText(key)) as Partial<ErasureNote>;
    if (typeof userId === 'string' && typeof addressHash === 'string' && typeof erasedAt === 'string') notes.push({ userId, addressHash, erasedAt });
  }
  return notes;
}
