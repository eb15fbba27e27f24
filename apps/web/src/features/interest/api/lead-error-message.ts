import { ApiError } from '../../../api/client';

export interface ToastMessage {
  kind: 'info' | 'error';
  title: string;
  description?: string;
}

const unexpected: ToastMessage = { kind: 'error', title: 'Something went wrong. Please try again.' };

/** What the interest form tells the visitor when a lead cannot be created (docs/product.md §8). */
export function leadErrorMessage(error: unknown): ToastMessage {
  if (!(error instanceof ApiError)) return unexpected;
  if (error.code === 'LEAD_EXISTS') {
    // A repeat visitor is good news, not a failure.
    return { kind: 'info', title: "You're already on the list", description: 'We already have your interest — check your email for next steps' };
  }
  if (error.code === 'VALIDATION_FAILED') {
    const firstFieldError = Object.values(error.fieldErrors).flat()[0];
    return { kind: 'error', title: 'Error', description: firstFieldError ?? error.message };
  }
  // A limit is not a database failure: the server's sentence already says how long to wait.
  if (error.code === 'RATE_LIMITED') return { kind: 'error', title: 'Error', description: error.message };
  if (error.code === 'NETWORK' || error.code === 'UNEXPECTED_RESPONSE') return unexpected;
  return { kind: 'error', title: 'Error', description: `Database error: ${error.message}` };
}
