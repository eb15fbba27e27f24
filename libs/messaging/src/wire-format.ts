import { errorCodes, fieldErrorsSchema, isErrorCode } from '@spark/contracts';
import { z } from 'zod';
import { DomainError } from '@spark/errors';

/** One stream entry: a request (with `id` and `replyTo`) or an event (without). */
export interface RequestEntry {
  pattern: string;
  /** JSON of the payload. */
  data: string;
  id?: string;
  replyTo?: string;
  /**
   * How many ms after the entry was added the caller stops waiting. Relative, so the receiver measures it from the
   * entry id's timestamp (Redis's clock) and no two hosts' clocks are ever compared.
   */
  budgetMs?: number;
  correlationId: string;
  /** The app that sent a request, and its signature of it (`signedEntry`). */
  caller?: string;
  signature?: string;
}

// Short field names: every entry stores them.
const field = {
  pattern: 'p',
  data: 'd',
  id: 'i',
  replyTo: 'r',
  budgetMs: 'b',
  correlationId: 'c',
  caller: 'a',
  signature: 's',
} as const;

/** Flattens an entry into XADD's `field value ...` arguments. */
export function encodeEntry(entry: RequestEntry): string[] {
  const fields = [field.pattern, entry.pattern, field.data, entry.data, field.correlationId, entry.correlationId];
  if (entry.id !== undefined) fields.push(field.id, entry.id);
  if (entry.replyTo !== undefined) fields.push(field.replyTo, entry.replyTo);
  if (entry.budgetMs !== undefined) fields.push(field.budgetMs, String(entry.budgetMs));
  if (entry.caller !== undefined) fields.push(field.caller, entry.caller);
  if (entry.signature !== undefined) fields.push(field.signature, entry.signature);
  return fields;
}

/** Reads XREADGROUP's flat `[field, value, ...]`; undefined when the entry is not ours. */
export function decodeEntry(flat: readonly string[]): RequestEntry | undefined {
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < flat.length; index += 2) values.set(flat[index], flat[index + 1]);
  const pattern = values.get(field.pattern);
  const data = values.get(field.data);
  if (pattern === undefined || data === undefined) return undefined;
  const budgetMs = values.has(field.budgetMs) ? Number(values.get(field.budgetMs)) : undefined;
  return {
    pattern,
    data,
    id: values.get(field.id),
    replyTo: values.get(field.replyTo),
    budgetMs: Number.isFinite(budgetMs) ? budgetMs : undefined,
    correlationId: values.get(field.correlationId) ?? '',
    caller: values.get(field.caller),
    signature: values.get(field.signature),
  };
}

const errorCodeSchema = z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes, ...(keyof typeof errorCodes)[]]);

const wireErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z
    .object({
      fieldErrors: fieldErrorsSchema.optional(),
      service: z.string().optional(),
      retryAfterSeconds: z.number().optional(),
    })
    .optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

const replySchema = z.object({
  id: z.string(),
  response: z.unknown().optional(),
  error: wireErrorSchema.optional(),
});
export type Reply = z.infer<typeof replySchema>;

export function encodeReply(reply: Reply): string {
  return JSON.stringify(reply);
}

export function decodeReply(json: string): Reply | undefined {
  try {
    const parsed = replySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The wire form of an expected failure: a DomainError, or the `{ code, message, details }` that
 * Nest's RPC exception filter rethrows for one. Anything else is unexpected: undefined.
 */
export function toWireError(error: unknown): WireError | undefined {
  if (error instanceof DomainError) {
    return error.details ? { code: error.code, message: error.message, details: error.details } : { code: error.code, message: error.message };
  }
  if (typeof error === 'object' && error !== null && isErrorCode((error as { code?: unknown }).code)) {
    const parsed = wireErrorSchema.safeParse(error);
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}

export function fromWireError(error: WireError): DomainError {
  return new DomainError(error.code, error.message, error.details);
}
