import { ApiError } from '../../../api/client';
import { signInErrorToast } from './sign-in-error';

describe('signInErrorToast', () => {
  it("shows the server's message for a refused request such as a rate limit", () => {
    const error = new ApiError(429, 'RATE_LIMITED', 'Please wait 60 seconds before asking for another link.');
    expect(signInErrorToast(error)).toEqual({ title: 'Sign in failed', description: 'Please wait 60 seconds before asking for another link.' });
  });

  it('says "Please try again" when the server or the network failed', () => {
    expect(signInErrorToast(new ApiError(0, 'NETWORK', 'Failed to fetch'))).toEqual({ title: 'Sign in failed', description: 'Please try again' });
    expect(signInErrorToast(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Down'))).toEqual({ title: 'Sign in failed', description: 'Please try again' });
  });

  it('treats anything else as unexpected', () => {
    expect(signInErrorToast(new TypeError('boom'))).toEqual({ title: 'Something went wrong', description: 'Please try again or contact support' });
  });
});
