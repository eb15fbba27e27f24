import { type PatternName, patterns } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { parseRequest, sparkContract } from '@spark/messaging';
import { arbitraryPayload } from '@spark/testing';
import fc from 'fast-check';

const patternNames = Object.keys(patterns) as PatternName[];

// The gate every bus entry passes before a handler runs (see fuzz-bus-patterns.int-spec.ts for the same
// property through the real transport and services): 1 000 runs per pattern here, where they cost microseconds.
describe('the bus gate, fuzzed with fast-check', () => {
  it.each(patternNames)('%s: refuses exactly what its contract refuses, with VALIDATION_FAILED and nothing else', (pattern) => {
    const schema = patterns[pattern].request;
    fc.assert(
      fc.property(arbitraryPayload(schema), (payload) => {
        const json = JSON.stringify(payload) ?? 'null';
        const valid = schema.safeParse(JSON.parse(json)).success;
        try {
          parseRequest(sparkContract, pattern, json);
          return valid;
        } catch (error) {
          return !valid && error instanceof DomainError && error.code === 'VALIDATION_FAILED';
        }
      }),
      { numRuns: 1000 },
    );
  });
});
