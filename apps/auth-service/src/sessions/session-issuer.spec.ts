import { hashToken, newOpaqueToken } from '../sign-in/secrets';
import { SessionIssuer } from './session-issuer';

describe('SessionIssuer.successorOf', () => {
  const issuer = new SessionIssuer('unit-test-secret-for-successors-0123');

  it('derives the same successor from the same token, so a repeated refresh can be answered with it again', () => {
    const presented = newOpaqueToken();
    expect(issuer.successorOf(presented).token).toBe(issuer.successorOf(presented).token);
    expect(issuer.successorOf(presented).tokenHash).toEqual(issuer.successorOf(presented).tokenHash);
  });

  it('derives a different successor for another token or under another secret', () => {
    const presented = newOpaqueToken();
    const successor = issuer.successorOf(presented).token;
    expect(issuer.successorOf(newOpaqueToken()).token).not.toBe(successor);
    expect(new SessionIssuer('another-unit-test-secret-for-successors').successorOf(presented).token).not.toBe(successor);
  });

  it('looks like any refresh token: 32 bytes, base64url, neither the token nor a plain hash of it', () => {
    const presented = newOpaqueToken();
    const successor = issuer.successorOf(presented);
    expect(successor.token).toMatch(/^[\w-]{43}$/);
    expect(successor.token).not.toBe(presented);
    // Whoever saw a token must not work out its successor without the server's secret.
    expect(successor.token).not.toBe(hashToken(presented).toString('base64url'));
  });
});
