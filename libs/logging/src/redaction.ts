import { stdSerializers } from 'pino';

const REDACTED = '[redacted]';

// Fields that hold a credential or a way to one, by name in any letter case and at any depth.
// `parameters` and `detail` are a database error's bound values and PostgreSQL's echo of a row.
const SECRET_FIELDS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'token',
  'refreshtoken',
  'refresh_token',
  'accesstoken',
  'access_token',
  'link',
  'magiclink',
  'parameters',
  'detail',
]);

// A sign-in code is six digits; other `code` fields (error codes, SQLSTATE, errno names) stay readable.
const isSignInCode = (value: unknown) => (typeof value === 'string' || typeof value === 'number') && /^\d{6}$/.test(String(value));

// A token or code in a URL anywhere in a string: a query parameter or the fragment the magic link uses.
const secretInUrl = /([?#&](?:token|code)=)[^&#\s"'<>]+/gi;

/** `text` with the value of every `token=` and `code=` URL parameter replaced. */
export function redactUrlSecrets(text: string): string {
  return text.includes('=') ? text.replace(secretInUrl, `$1${REDACTED}`) : text;
}

const MAX_DEPTH = 8;

/**
 * pino's error serializer (its message and stack already name every cause) plus the cause as a field,
 * so a cause's own details (a connection error's `code` and `address`) reach the log too; a cause's
 * stack is already part of the outer one.
 */
function serializeError(error: Error, { withStack = true } = {}): object {
  const { stack, ...details } = stdSerializers.err(error);
  const cause = error.cause instanceof Error ? serializeError(error.cause, { withStack: false }) : error.cause;
  return { ...details, ...(withStack ? { stack } : {}), ...(cause === undefined ? {} : { cause }) };
}

/**
 * A copy of a log line's fields with every secret replaced: the value of any secret field, a
 * six-digit `code`, and tokens inside URLs in any string. Errors are serialized first (pino's own
 * serializer, which keeps their extra fields, and their causes), so a database error's parameters are reached too.
 * The logged objects themselves are never changed.
 */
export function redactSecrets(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactUrlSecrets(value);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Date) return value;
  if (depth > MAX_DEPTH || seen.has(value)) return '[omitted]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1, seen));
  const source = value instanceof Error ? serializeError(value) : value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(source)) {
    const name = key.toLowerCase();
    if (SECRET_FIELDS.has(name) || (name === 'code' && isSignInCode(field))) copy[key] = REDACTED;
    else copy[key] = redactSecrets(field, depth + 1, seen);
  }
  return copy;
}
