import { patterns, replaySafePatterns, sharedAnswerPatterns } from './patterns';

describe('sharedAnswerPatterns', () => {
  it('holds only reads of the contract, each with its reason', () => {
    for (const [pattern, reason] of Object.entries(sharedAnswerPatterns)) {
      expect([pattern, Object.hasOwn(patterns, pattern), replaySafePatterns[pattern as keyof typeof patterns]]).toEqual([pattern, true, 'reads']);
      expect(reason?.length).toBeGreaterThan(0);
    }
  });

  it('takes no request that names an actor or a user: their answers depend on who asks', () => {
    const askedBySomeone = Object.keys(sharedAnswerPatterns).filter((pattern) => {
      const shape = (patterns[pattern as keyof typeof patterns].request as { shape?: Record<string, unknown> }).shape ?? {};
      return ['actor', 'userId', 'coachId', 'clientId'].some((field) => field in shape);
    });
    expect(askedBySomeone).toEqual([]);
  });
});
