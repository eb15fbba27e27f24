import { type SigningKeyPair, signingKeyName, signingKeyPairs, signingKeyPairsOf } from '@spark/contracts';
import { ConfigError, loadConfig } from './load-config';
import { serviceEnv } from './schemas';
import { assertSigningKeysFor, developmentSigningKey, freshSigningKeys, isPairSignature, pairSignature, signingKeys } from './signing-keys';

const production = (SIGNING_KEYS?: string) => ({ NODE_ENV: 'production', SIGNING_KEYS });
const keysIn = (value?: string) => signingKeys(production(value)).safeParse(value);
const productionKeys = (value?: string) => signingKeys(production(value)).parse(value);
const hex = (byte: string) => byte.repeat(32);
const authMail: SigningKeyPair = { kind: 'job', queue: 'mail', producer: 'auth' };

describe('SIGNING_KEYS', () => {
  it('gives every pair its development key outside production', () => {
    const keys = loadConfig(serviceEnv, {}).SIGNING_KEYS;
    expect([...keys.keys()].sort()).toEqual(signingKeyPairs().map(signingKeyName).sort());
    expect(keys.get('job:mail/auth')?.[0]?.export().toString('hex')).toBe(developmentSigningKey(authMail));
    expect(keys.has('bus:auth/leads')).toBe(true);
  });

  it('stops an app in production that lacks a key of something it signs or checks, naming the pairs', () => {
    const keys = productionKeys(`job:mail/leads=${hex('ab')}`);
    expect(() => assertSigningKeysFor('leads', keys)).toThrow(ConfigError);
    expect(() => assertSigningKeysFor('leads', keys)).toThrow(
      /SIGNING_KEYS lacks job:account-deletion-leads\/auth, bus:leads\/gateway, bus:auth\/leads, bus:progress\/leads, bus:leads\/progress for leads/,
    );
    expect(() => assertSigningKeysFor('content', productionKeys(`bus:content/gateway=${hex('cd')}`))).not.toThrow();
  });

  it.each([
    ['a development key', `job:mail/auth=${developmentSigningKey(authMail)}`, /job:mail\/auth is the development key/],
    ['a pair nothing signs', `bus:auth/content=${hex('01')}`, /names nothing that is signed: bus:auth\/content/],
    ['a placeholder', 'CHANGE_ME', /names nothing that is signed/],
    ['a short key', `job:mail/auth=${'ab'.repeat(16)}`, /job:mail\/auth needs 32 random bytes in hex/],
  ])('refuses %s in production', (_case, value, message) => {
    const parsed = keysIn(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join()).toMatch(message);
  });

  it('keeps every key listed for a pair, the first to sign with', () => {
    const keys = productionKeys(`job:mail/auth=${hex('0a')}, job:mail/auth=${hex('0b')}`);
    expect(keys.get('job:mail/auth')?.map((key) => key.export().toString('hex'))).toEqual([hex('0a'), hex('0b')]);
  });

  it("writes each pair's fresh key into the values of its two ends only, enough for each to start", () => {
    const generated = freshSigningKeys();
    expect(generated.map(({ app }) => app).sort()).toEqual(['auth', 'content', 'ditl', 'gateway', 'investor', 'leads', 'notifier', 'progress']);
    for (const { app, value } of generated) {
      const keys = productionKeys(value);
      expect([...keys.keys()].sort()).toEqual(signingKeyPairsOf(app).map(signingKeyName).sort());
      expect(() => assertSigningKeysFor(app, keys)).not.toThrow();
    }
    const holders = (name: string) => generated.filter(({ value }) => value.includes(`${name}=`)).map(({ app }) => app);
    expect(holders('job:export/progress')).toEqual(['progress']);
    expect(holders('job:mail/investor')).toEqual(['investor', 'notifier']);
    expect(holders('job:account-deletion-ditl/auth')).toEqual(['auth', 'ditl']);
    expect(holders('job:account-deletion-investor/auth')).toEqual(['auth', 'investor']);
    expect(holders('bus:auth/investor')).toEqual(['auth', 'investor']);
    expect(holders('bus:auth/gateway')).toEqual(['gateway', 'auth']);
    expect(holders('bus:progress/notifier')).toEqual(['progress', 'notifier']);
  });
});

describe('pair signatures', () => {
  const rotated = productionKeys(`job:mail/auth=${hex('0a')},job:mail/auth=${hex('0b')}`);
  const signedBy = (first: string) => pairSignature(productionKeys(`job:mail/auth=${hex(first)}`), 'job:mail/auth', 'mail\nx\n1\n', '{"a":1}') ?? '';

  it('signs with the first key and verifies with any key of the pair', () => {
    expect(pairSignature(rotated, 'job:mail/auth', 'mail\nx\n1\n', '{"a":1}')).toBe(signedBy('0a'));
    expect(isPairSignature(rotated, 'job:mail/auth', 'mail\nx\n1\n', '{"a":1}', signedBy('0a'))).toBe(true);
    expect(isPairSignature(rotated, 'job:mail/auth', 'mail\nx\n1\n', '{"a":1}', signedBy('0b'))).toBe(true);
  });

  it.each([
    ['another key', () => signedBy('0c'), 'mail\nx\n1\n', '{"a":1}'],
    ['another header', () => signedBy('0a'), 'mail\nx\n2\n', '{"a":1}'],
    ['another body', () => signedBy('0a'), 'mail\nx\n1\n', '{"a":2}'],
    ['a cut signature', () => signedBy('0a').slice(0, 20), 'mail\nx\n1\n', '{"a":1}'],
    ['no signature', () => '', 'mail\nx\n1\n', '{"a":1}'],
  ])('refuses %s', (_case, signature, header, body) => {
    expect(isPairSignature(rotated, 'job:mail/auth', header, body, signature())).toBe(false);
  });

  it('has no signature for, and verifies nothing of, a pair this app holds no key of', () => {
    expect(pairSignature(rotated, 'bus:auth/leads', 'h', 'b')).toBeUndefined();
    expect(isPairSignature(rotated, 'bus:auth/leads', 'mail\nx\n1\n', '{"a":1}', signedBy('0a'))).toBe(false);
  });
});
