import { hashSignInCode, hashToken, magicLinkUrl, newOpaqueToken, newSignInCode } from './secrets';

describe('sign-in secrets', () => {
  it('makes 43-character base64url tokens that differ every time', () => {
    const tokens = new Set(Array.from({ length: 100 }, newOpaqueToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[\w-]{43}$/);
  });

  it('hashes a token to its 32-byte SHA-256', () => {
    expect(hashToken('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('makes 6-digit codes, zero-padded', () => {
    for (let i = 0; i < 200; i++) expect(newSignInCode()).toMatch(/^\d{6}$/);
  });

  it('binds a code hash to the secret and the e-mail', () => {
    const hash = hashSignInCode('secret', 'a@example.com', '123456');
    expect(hash.equals(hashSignInCode('secret', 'a@example.com', '123456'))).toBe(true);
    expect(hash.equals(hashSignInCode('other', 'a@example.com', '123456'))).toBe(false);
    expect(hash.equals(hashSignInCode('secret', 'b@example.com', '123456'))).toBe(false);
  });

  it('builds the /magic-link-auth link with the token in the fragment, next and approved only when given', () => {
    expect(magicLinkUrl('https://spark.example/', 'tok', undefined, false)).toBe('https://spark.example/magic-link-auth#token=tok');
    expect(magicLinkUrl('http://localhost:8080', 'tok', 'ditl-welcome', true)).toBe(
      'http://localhost:8080/magic-link-auth?next=ditl-welcome&approved=true#token=tok',
    );
  });
});
