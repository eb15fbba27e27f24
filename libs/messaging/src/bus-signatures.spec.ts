import { developmentSigningKeys } from '@spark/config';
import { senderRefusal, signedEntry } from './bus-signatures';
import type { RequestEntry } from './wire-format';

const keys = developmentSigningKeys();
const invite: RequestEntry = {
  pattern: 'auth.invite',
  data: JSON.stringify({ email: 'ann@example.com', role: 'client' }),
  id: 'request-1',
  replyTo: 'spark:reply:leads:7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  correlationId: 'c-1',
};

describe('bus request signatures', () => {
  it('lets through a request its sender may send and signed', () => {
    expect(senderRefusal(keys, 'auth', signedEntry(keys, 'leads', invite))).toBeUndefined();
    expect(senderRefusal(keys, 'auth', signedEntry(keys, 'gateway', { ...invite, pattern: 'auth.set-role' }))).toBeUndefined();
  });

  it.each([
    ['unsigned', invite, 'an unsigned request'],
    ['a pattern its sender has no business sending', signedEntry(keys, 'leads', { ...invite, pattern: 'auth.set-role' }), 'leads may not send auth.set-role'],
    [
      'a pattern only services send, from the gateway',
      signedEntry(keys, 'gateway', { ...invite, pattern: 'auth.deletion-subject' }),
      'gateway may not send auth.deletion-subject',
    ],
    ['its data changed', { ...signedEntry(keys, 'leads', invite), data: JSON.stringify({ email: 'eve@example.com', role: 'coach' }) }, 'not signed by leads'],
    [
      'its answer sent elsewhere',
      { ...signedEntry(keys, 'leads', invite), replyTo: 'spark:reply:gateway:7c1d6f8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' },
      'not signed by leads',
    ],
    ['another sender named', { ...signedEntry(keys, 'progress', { ...invite, pattern: 'auth.get-user' }), caller: 'gateway' }, 'not signed by gateway'],
  ])('refuses a request %s', (_case, entry, reason) => {
    expect(senderRefusal(keys, 'auth', entry)).toBe(reason);
  });

  it('refuses to sign without the key of the pair', () => {
    expect(() => signedEntry(new Map(), 'leads', invite)).toThrow('No key to sign auth.invite as leads (SIGNING_KEYS needs bus:auth/leads)');
  });
});
