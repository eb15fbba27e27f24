import { ConfigError, loadConfig } from './load-config';
import { gatewayEnv } from './schemas';

const trustProxy = (value: string | undefined) => loadConfig(gatewayEnv, { TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset, empty or 0', () => {
    expect(trustProxy(undefined)).toBe(false);
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('  ')).toBe(false);
    expect(trustProxy('0')).toBe(false);
  });

  it('reads a hop count', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
  });

  it('reads a comma-separated list of addresses, CIDR ranges and proxy-addr range names', () => {
    expect(trustProxy('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trustProxy('10.0.0.0/8, 192.168.1.7,::1,fd00::/8,uniquelocal')).toEqual(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', 'uniquelocal']);
  });

  it.each(['true', 'yes', '10.0.0.0/33', '::/129', '10.0.0/8', '1.2.3.4/8/8', 'example.com', '10.0.0.1,', '99'])('refuses %j naming the variable', (value) => {
    let thrown: unknown;
    try {
      trustProxy(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).variables).toEqual(['TRUST_PROXY']);
    expect((thrown as ConfigError).message).toContain('TRUST_PROXY must be empty (trust no proxy), a hop count');
  });
});
