import { randomUUID } from 'node:crypto';
import { type ErasureNote, type ObjectStorage, readErasureNotes } from '@spark/storage';
import type { DataSource } from 'typeorm';
import { AccountDeletionRepository } from './account-deletion.repository';

/**
 * The address a restored database still holds for a noted account, as every part matches it (trimmed, lower case).
 * The account's own row names it when the backup predates the erasure. Without that row, a backup that predates the
 * account may still hold the address in a lead, an investor contact, a coach's evolution preset or the e-mail ledger,
 * written before the erasure; a row written after it, or an account of another id under the address, is someone who
 * took the address since (the backup postdates the erasure), and is left alone. Read across schemas, so only with the
 * database owner's login (the restore step's).
 */
async function restoredAddress(dataSource: DataSource, note: ErasureNote): Promise<string | undefined> {
  const [row] = (await dataSource.query(
    `WITH matching AS (SELECT $2::text AS hash, $3::timestamptz AS erased_at),
     own AS (SELECT email FROM auth.users WHERE id = $1),
     taken AS (SELECT 1 FROM auth.users, matching WHERE encode(sha256(convert_to(lower(btrim(email)), 'UTF8')), 'hex') = hash),
     earlier(email) AS (
       SELECT email FROM leads.leads, matching WHERE created_at < erased_at
       UNION ALL SELECT email FROM investor.investors, matching WHERE created_at < erased_at
       UNION ALL SELECT email FROM progress.evolution_presets, matching WHERE created_at < erased_at
       UNION ALL SELECT recipient FROM notifier.sent_emails, matching WHERE updated_at < erased_at)
     SELECT lower(btrim(email)) AS email FROM own
     UNION ALL
     SELECT lower(btrim(email)) FROM earlier, matching
     WHERE NOT EXISTS (SELECT 1 FROM own) AND NOT EXISTS (SELECT 1 FROM taken)
       AND encode(sha256(convert_to(lower(btrim(email)), 'UTF8')), 'hex') = hash
     LIMIT 1`,
    [note.userId, note.addressHash, note.erasedAt],
  )) as { email: string }[];
  return row?.email;
}

/**
 * After `pg_restore`, before the apps start: queues the deletion again, through the deletion machinery (every part),
 * of each account the bucket notes as erased whose id or address the restored database still holds. An account
 * erased before the backup was taken, or whose deletion the backup holds unfinished, is left as it is. Answers how many
 * notes it read and how many deletions it queued; it names no one.
 */
export async function replayErasures(dataSource: DataSource, storage: ObjectStorage): Promise<{ noted: number; queued: number }> {
  const deletions = new AccountDeletionRepository(dataSource);
  const notes = await readErasureNotes(storage);
  let queued = 0;
  for (const note of notes) {
    const email = await restoredAddress(dataSource, note);
    if (email && (await deletions.eraseAgain(randomUUID(), { userId: note.userId, email }))) queued += 1;
  }
  return { noted: notes.length, queued };
}
