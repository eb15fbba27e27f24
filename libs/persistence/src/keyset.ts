/**
 * Keyset cursors for lists ordered by (created_at DESC, id DESC). The cursor is opaque to
 * clients: base64url of "<iso timestamp>|<uuid>".
 */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

/** Returns undefined for a cursor that is not one of ours, so a forged value cannot reach SQL. */
export function decodeCursor(cursor: string | undefined): KeysetPosition | undefined {
  if (!cursor) return undefined;
  const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(iso ?? '');
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id ?? '');
  return Number.isNaN(createdAt.getTime()) || !isUuid ? undefined : { createdAt, id: id as string };
}
