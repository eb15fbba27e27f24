import { z } from 'zod';

/**
 * Every error that crosses a process boundary carries one of these codes.
 * The gateway maps a code to its HTTP status with `httpStatusOf`; the web app reads the code.
 * Never rename a shipped code: clients branch on it.
 */
export const errorCodes = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  LEAD_EXISTS: 409,
  /** An invitation to an address whose account has another role: an invitation never changes a role. */
  ACCOUNT_ROLE_DIFFERS: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export const httpStatusOf = (code: ErrorCode): number => errorCodes[code];

export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(errorCodes, value);

/** Field errors, keyed by the dotted path of the offending field. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** The JSON body of every non-2xx answer from the gateway. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  fieldErrors: fieldErrorsSchema.optional(),
  service: z.string().optional(),
  correlationId: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** How long until a retry, as a person says it: "45 seconds", "12 minutes", "1 hour", "23 hours" (rounded up). */
export function waitPhrase(seconds: number): string {
  const [amount, unit] = seconds < 60 ? [seconds, 'second'] : seconds < 3600 ? [seconds / 60, 'minute'] : [seconds / 3600, 'hour'];
  const rounded = Math.max(1, Math.ceil(amount));
  return `${rounded} ${unit}${rounded === 1 ? '' : 's'}`;
}

/** Flattens zod issues into `FieldErrors`, the shape every 400 carries. */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}
