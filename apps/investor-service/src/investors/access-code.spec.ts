import { accessCodeSchema } from '@spark/contracts';
import { newAccessCode } from './access-code';

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
