import { DomainError } from '@spark/messaging';

/** The position after a row in a newest-first list: its exact created_at text and id, opaque to clients. */
export interface LeadCursor {
  createdAt: string;
  id: string;
}

export const encodeLeadCursor = (cursor: LeadCursor): string => Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString('base64url');

export function decodeLeadCursor(value: string): LeadCursor {
  const [createdAt, id] = Buffer.from(value, 'base64url').toString().split('|');
  const uuid = /^[0-9a-f-]{36}$/i;
  if (!createdAt || !id || !uuid.test(id) || Number.isNaN(Date.parse(createdAt))) {
    throw new DomainError('VALIDATION_FAILED', 'The page cursor is invalid.', { fieldErrors: { cursor: ['Invalid cursor'] } });
  }
  return { createdAt, id };
}
