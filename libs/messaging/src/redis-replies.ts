// ioredis types most stream replies as `unknown`; these narrow them without trusting their shape.

export type StreamEntry = [entryId: string, fields: string[]];

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Entries of an XRANGE-like list; deleted entries (nil fields) are dropped. */
export function toStreamEntries(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  const entries: StreamEntry[] = [];
  for (const item of reply) {
    if (Array.isArray(item) && typeof item[0] === 'string' && isStringArray(item[1])) {
      entries.push([item[0], item[1]]);
    }
  }
  return entries;
}

/** XREADGROUP on one stream: `[[key, entries]]` or null when the block timed out. */
export function entriesOfReadGroup(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply) || !Array.isArray(reply[0])) return [];
  return toStreamEntries(reply[0][1]);
}

/** XAUTOCLAIM: `[nextCursor, claimedEntries, deletedIds]`. */
export function parseAutoClaim(reply: unknown): { nextCursor: string; entries: StreamEntry[] } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') return { nextCursor: '0-0', entries: [] };
  return { nextCursor: reply[0], entries: toStreamEntries(reply[1]) };
}

export interface ConsumerInfo {
  name: string;
  pending: number;
  idleMs: number;
}

/** XINFO CONSUMERS: a list of flat `[field, value, ...]` rows. */
export function parseConsumers(reply: unknown): ConsumerInfo[] {
  if (!Array.isArray(reply)) return [];
  const consumers: ConsumerInfo[] = [];
  for (const row of reply) {
    if (!Array.isArray(row)) continue;
    const fields = new Map<unknown, unknown>();
    for (let index = 0; index + 1 < row.length; index += 2) fields.set(row[index], row[index + 1]);
    const name = fields.get('name');
    const pending = Number(fields.get('pending'));
    // Redis 7.2+ reports `inactive` (since last successful read); older versions only `idle`.
    const idleMs = Number(fields.get('inactive') ?? fields.get('idle'));
    if (typeof name === 'string' && Number.isFinite(pending) && Number.isFinite(idleMs)) {
      consumers.push({ name, pending, idleMs });
    }
  }
  return consumers;
}

/** Consumers that hold nothing and have not read for `deadAfterMs`: safe to delete. */
export function deadConsumers(consumers: ConsumerInfo[], deadAfterMs: number, self: string): string[] {
  return consumers.filter((consumer) => consumer.name !== self && consumer.pending === 0 && consumer.idleMs > deadAfterMs).map((consumer) => consumer.name);
}
