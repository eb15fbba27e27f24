import { z } from 'zod';
import { longestAnswerChars } from './structured-chat';

describe('longestAnswerChars', () => {
  it('is the length of the longest JSON the schema accepts', () => {
    const schema = z.object({ kind: z.enum(['a', 'longer']), lines: z.array(z.string().max(5)).max(2) }).strict();
    const longest = { kind: 'longer', lines: ['xxxxx', 'xxxxx'] };
    expect(schema.parse(longest)).toEqual(longest);
    expect(longestAnswerChars(schema)).toBe(JSON.stringify(longest).length);
  });

  it('refuses a schema with a string of any length', () => {
    expect(() => longestAnswerChars(z.object({ message: z.string() }))).toThrow('without limits');
  });
});
