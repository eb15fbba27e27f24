import { jobKeyPairs, jobKeyPairsOf } from '@spark/contracts';
import { assertJobKeysFor, developmentJobKey, freshJobKeys, jobKeyName, jobKeys } from './job-keys';
import { ConfigError, loadConfig } from './load-config';
import { serviceEnv } from './schemas';

const production = (JOB_KEYS?: string) => ({ NODE_ENV: 'production', JOB_KEYS });
const jobKeysIn = (env: Record<string, string | undefined>) => jobKeys(env).safeParse(env.JOB_KEYS);
const productionKeys = (value?: string) => jobKeys(production(value)).parse(value);
const hex = (byte: string) => byte.repeat(32);

describe('JOB_KEYS', () => {
  it('gives every pair its development key outside production', () => {
    const keys = loadConfig(serviceEnv, {}).JOB_KEYS;
    expect([...keys.keys()].sort()).toEqual(jobKeyPairs().map(jobKeyName).sort());
    const [auth] = keys.get('mail/auth') ?? [];
    expect(auth?.export().toString('hex')).toBe(developmentJobKey({ queue: 'mail', producer: 'auth' }));
  });

  it('stops an app in production that lacks a key of a job it signs or runs, naming the pairs', () => {
    const keys = productionKeys(`mail/leads=${hex('ab')}`);
    expect(() => assertJobKeysFor('leads', keys)).toThrow(ConfigError);
    expect(() => assertJobKeysFor('leads', keys)).toThrow(/JOB_KEYS lacks account-deletion-leads\/auth for leads/);
    expect(() => assertJobKeysFor('content', productionKeys())).not.toThrow();
  });

  it.each([
    ['a development key', `mail/auth=${developmentJobKey({ queue: 'mail', producer: 'auth' })}`, /mail\/auth is the development key/],
    ['a pair no job has', `mail/gateway=${hex('01')}`, /names no queue and producer of a signed job: mail\/gateway/],
    ['a placeholder', 'CHANGE_ME', /names no queue and producer/],
    ['a short key', `mail/auth=${'ab'.repeat(16)}`, /mail\/auth needs 32 random bytes in hex/],
  ])('refuses %s in production', (_case, value, message) => {
    const parsed = jobKeysIn(production(value));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join()).toMatch(message);
  });

  it('keeps every key listed for a pair, the first to sign with', () => {
    const keys = productionKeys(`mail/auth=${hex('0a')}, mail/auth=${hex('0b')}`);
    expect(keys.get('mail/auth')?.map((key) => key.export().toString('hex'))).toEqual([hex('0a'), hex('0b')]);
  });

  it("writes each pair's fresh key into its producer's and its consumer's value only, enough for each to start", () => {
    const generated = freshJobKeys();
    expect(generated.map(({ app }) => app).sort()).toEqual(['auth', 'ditl', 'investor', 'leads', 'notifier', 'progress']);
    for (const { app, value } of generated) {
      const keys = productionKeys(value);
      expect([...keys.keys()].sort()).toEqual(jobKeyPairsOf(app).map(jobKeyName).sort());
      expect(() => assertJobKeysFor(app, keys)).not.toThrow();
    }
    const holders = (name: string) => generated.filter(({ value }) => value.includes(`${name}=`)).map(({ app }) => app);
    expect(holders('export/progress')).toEqual(['progress']);
    expect(holders('mail/investor')).toEqual(['investor', 'notifier']);
    expect(holders('account-deletion-ditl/auth')).toEqual(['auth', 'ditl']);
  });
});
