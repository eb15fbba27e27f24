import { forgetWhatTheSessionShowed, signOutLocally } from './sign-out-locally';
import { installMemoryLocalStorage } from '../../lib/memory-local-storage.testing';

const stored = installMemoryLocalStorage();

// What a client who finished onboarding while the DITL service was down leaves on the device.
const waitingDitlRequest = JSON.stringify({
  userId: 'a',
  answers: { firstName: 'Maya', typicalDay: 'Night shifts' },
  requestId: '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a',
});

describe('what a person leaves on the device', () => {
  beforeEach(() => {
    stored.clear();
    stored.set('spark_ditl_request_pending', waitingDitlRequest);
    stored.set('spark_sign_out_pending', 'true');
  });

  it('goes at sign-out, with the onboarding answers of a DITL request still waiting; the device’s own keys stay', () => {
    signOutLocally();
    expect([...stored.keys()]).toEqual(['spark_sign_out_pending']);
  });

  it('loses the onboarding answers of a waiting DITL request once the server ends the session', () => {
    forgetWhatTheSessionShowed();
    expect(stored.has('spark_ditl_request_pending')).toBe(false);
  });
});
