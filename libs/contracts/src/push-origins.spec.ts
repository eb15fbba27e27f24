import { pushEndpointAllowed } from './push-origins';

const allowed = ['https://fcm.googleapis.com', 'https://*.notify.windows.com', 'http://localhost:8090'];

describe('push endpoints', () => {
  it('are accepted at an allowed push service only', () => {
    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc', allowed)).toBe(true);
    expect(pushEndpointAllowed('https://wns2-par02p.notify.windows.com/w/?token=x', allowed)).toBe(true);
    expect(pushEndpointAllowed('http://localhost:8090/notify/abc', allowed)).toBe(true);
  });

  it('are refused anywhere else, however the address is dressed up', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com.evil.example/x',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/x',
      'https://notify.windows.com/x',
      'https://evil.example/?https://fcm.googleapis.com',
      'https://user@evil.example/x',
      'http://localhost:8091/notify/abc',
      'http://169.254.169.254/latest/meta-data',
      'not a url',
    ]) {
      expect([endpoint, pushEndpointAllowed(endpoint, allowed)]).toEqual([endpoint, false]);
    }
  });
});
