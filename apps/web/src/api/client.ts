import { errorBodySchema, type FieldErrors } from '@spark/contracts';

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

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) {
    const { statusCode, code, message, fieldErrors } = parsed.data;
    return new ApiError(statusCode, code, message, fieldErrors);
  }
  return new ApiError(response.status, 'UNEXPECTED_RESPONSE', response.statusText || 'Unexpected response');
}

/** The one way the SPA talks to `/api`: JSON in and out, cookies included, errors as `ApiError`. */
export async function apiRequest<T>(method: Method, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: 'include',
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', error instanceof Error ? error.message : 'Network error');
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
