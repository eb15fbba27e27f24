import { accessCodeSchema } from '@spark/contracts';
import { hashAccessCode, newAccessCode } from './access-code';

describe('newAccessCode', () => {
  it('makes codes the deck form accepts', () => {
    expect(accessCodeSchema.parse(newAccessCode())).toMatch(/^SPARK(-[0-9A-Z]{4}){5}$/);
  });

  it('makes a different code every time', () => {
    const codes = new Set(Array.from({ length: 1000 }, () => newAccessCode()));
    expect(codes.size).toBe(1000);
  });

  it('accepts a code typed in lower case with spaces around it', () => {
    const code = newAccessCode();
    expect(accessCodeSchema.parse(`  ${code.toLowerCase()} `)).toBe(code);
  });
});

describe('hashAccessCode', () => {
  it('hashes the form the deck form normalises to, so a code typed in lower case finds its hash', () => {
    const code = newAccessCode();
    expect(hashAccessCode(accessCodeSchema.parse(code.toLowerCase()))).toEqual(hashAccessCode(code));
    expect(hashAccessCode(code)).toHaveLength(32);
    expect(hashAccessCode(code)).not.toEqual(hashAccessCode(newAccessCode()));
  });
});
