import type { FieldErrors } from '@spark/contracts';
import { answerDeadlineMs, isPastDeadline, uploadDeadlineMs } from './deadlines';

/** A non-2xx answer from the gateway, or a failure to reach it (status 0, code NETWORK). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to tell a person whose request failed: the server's own words, or that Spark could not be reached (status 0). */
export const failureMessage = (error: unknown): string =>
  error instanceof ApiError && error.status !== 0 ? error.message : 'Could not reach Spark. Please try again when you are online.';

/** A refusal to wait out: asking again at once only counts one more request against the limit. */
export const isRateLimited = (error: unknown): boolean => error instanceof ApiError && error.status === 429;

/** A network failure, an outage or a rate limit: the same request may succeed later; any other 4xx will not. */
export const isTransientFailure = (error: unknown): boolean => error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);

/** What a screen that could not load says: the server's own words when they say when to try again, else `fallback`. */
export const loadFailureMessage = (error: unknown, fallback: string): string => (isRateLimited(error) ? failureMessage(error) : fallback);

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Where requests get their bearer token; the session module registers itself here. */
export interface AccessTokenSource {
  /** The current access token, waiting for a restore in flight; null when signed out, or signed in as another than `asUser`. */
  accessToken(asUser?: string): Promise<string | null>;
  /** Called once after a 401: a fresh token to retry with, or null when the session is gone (or is another's than `asUser`). */
  renewAfterUnauthorized(rejectedToken: string, asUser?: string): Promise<string | null>;
}

let tokenSource: AccessTokenSource | null = null;

export function registerAccessTokenSource(source: AccessTokenSource): void {
  tokenSource = source;
}

export interface RequestOptions {
  // Session calls (refresh, redeem, sign-out) travel on the cookie, never on a bearer token.
  authenticate?: boolean;
  /**
   * False when the caller tells errors apart by status alone: the error body is not read, so a visitor's session
   * check (a 401 on every first visit) does not load zod with the page.
   */
  readErrorBody?: boolean;
  /**
   * Sent only under this user's session, else refused here with a 401: work the device does for one person (a capture
   * uploading) must never go out as whoever signed in on the tab since it started.
   */
  asUser?: string;
  /** Sent as `Idempotency-Key`: a command sent again with the same key after a lost answer runs once (`useIdempotencyKey`). */
  idempotencyKey?: string;
}

const networkError = (error: unknown) =>
  new ApiError(0, 'NETWORK', isPastDeadline(error) ? 'Spark did not answer in time' : error instanceof Error ? error.message : 'Network error');

const formBytes = (form: FormData) => [...form.values()].reduce((bytes, value) => bytes + (typeof value === 'string' ? value.length : value.size), 0);

interface Sent {
  response: Response;
  /** Aborts at the request's deadline, reading the answer's body included. */
  signal: AbortSignal;
}

async function send(method: Method, path: string, body: unknown, accessToken: string | null, idempotencyKey?: string): Promise<Sent> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  // A FormData body (file uploads) sets its own multipart boundary.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  const signal = AbortSignal.timeout(isForm ? uploadDeadlineMs(formBytes(body)) : answerDeadlineMs());
  try {
    const response = await fetch(`/api${path}`, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined || isForm ? body : JSON.stringify(body),
      signal,
    });
    return { response, signal };
  } catch (error) {
    throw networkError(error);
  }
}

/** The answer's JSON body; a body cut off at the deadline is a network failure like an answer that never came. */
async function readJson(sent: Sent): Promise<unknown> {
  try {
    return await sent.response.json();
  } catch (error) {
    if (sent.signal.aborted) throw networkError(sent.signal.reason);
    throw error;
  }
}

async function toApiError(sent: Sent, readBody: boolean): Promise<ApiError> {
  const { response } = sent;
  if (!readBody) return new ApiError(response.status, `HTTP_${response.status}`, response.statusText || `HTTP ${response.status}`);
  const body: unknown = await readJson(sent).catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    return null;
  });
  // zod is most of a page's script on the pages that only read: it loads with the first error answer.
  const { errorBodySchema } = await import('./deferred-schemas');
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) {
    const { statusCode, code, message, fieldErrors } = parsed.data;
    return new ApiError(statusCode, code, message, fieldErrors);
  }
  return new ApiError(response.status, 'UNEXPECTED_RESPONSE', response.statusText || 'Unexpected response');
}

/** The one way the SPA talks to `/api`: JSON in and out, the session's bearer token, errors as `ApiError`. */
export async function apiRequest<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const source = options.authenticate === false ? null : tokenSource;
  const { asUser } = options;
  const accessToken = source ? await source.accessToken(asUser) : null;
  if (asUser !== undefined && !accessToken) throw new ApiError(401, 'UNAUTHENTICATED', 'Not authenticated');
  let sent = await send(method, path, body, accessToken, options.idempotencyKey);
  // An expired or revoked token: renew silently once, then retry with the new one.
  if (sent.response.status === 401 && source && accessToken) {
    const renewed = await source.renewAfterUnauthorized(accessToken, asUser);
    if (renewed) sent = await send(method, path, body, renewed, options.idempotencyKey);
  }
  if (!sent.response.ok) throw await toApiError(sent, options.readErrorBody !== false);
  if (sent.response.status === 204) return undefined as T;
  return (await readJson(sent)) as T;
}
