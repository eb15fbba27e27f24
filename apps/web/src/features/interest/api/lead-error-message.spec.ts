import { ApiError } from '../../../api/client';
import { leadErrorMessage } from './lead-error-message';

describe('leadErrorMessage', () => {
  it('welcomes a visitor who already expressed interest instead of reporting a database error', () => {
    const message = leadErrorMessage(new ApiError(409, 'LEAD_EXISTS', 'duplicate key value violates unique constraint'));
    expect(message).toEqual({
      kind: 'info',
      title: "You're already on the list",
      description: 'We already have your interest — check your email for next steps',
    });
  });

  it('shows the first field error of a validation failure', () => {
    const error = new ApiError(400, 'VALIDATION_FAILED', 'Invalid body', { email: ['Enter a valid email address'] });
    expect(leadErrorMessage(error)).toEqual({ kind: 'error', title: 'Error', description: 'Enter a valid email address' });
  });

  it('reports other server failures as a database error with the server message', () => {
    const message = leadErrorMessage(new ApiError(503, 'SERVICE_UNAVAILABLE', 'leads-service did not answer'));
    expect(message).toEqual({ kind: 'error', title: 'Error', description: 'Database error: leads-service did not answer' });
  });

  it('passes on how long to wait when a limit was reached, without calling it a database error', () => {
    const message = leadErrorMessage(new ApiError(429, 'RATE_LIMITED', 'Too many requests. Please try again in 58 minutes.'));
    expect(message).toEqual({ kind: 'error', title: 'Error', description: 'Too many requests. Please try again in 58 minutes.' });
  });

  it('asks to try again when the network fails or the error is not an API error', () => {
    const expected = { kind: 'error', title: 'Something went wrong. Please try again.' };
    expect(leadErrorMessage(new ApiError(0, 'NETWORK', 'Failed to fetch'))).toEqual(expected);
    expect(leadErrorMessage(new TypeError('boom'))).toEqual(expected);
  });
});
