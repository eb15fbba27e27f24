import { developmentSigningKeys } from '@spark/config';
import { DomainError } from '@spark/errors';
import { testContract } from './__fixtures__/test-contract';
import { parseEvent, parseRequest, parseResponse, sparkContract } from './contract-check';
import { signedLeadSubmission } from './lead-submissions';

const submission = signedLeadSubmission(developmentSigningKeys(), { email: 'ada@example.com', role: 'client' });

const lead = {
  id: '7f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  email: 'ada@example.com',
  role: 'client',
  fullName: null,
  company: null,
  interest: null,
  approvalStatus: 'pending',
  primaryChallenge: null,
  userCreated: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('parseRequest', () => {
  it('returns the parsed payload of a contract pattern', () => {
    expect(parseRequest(sparkContract, 'leads.create', JSON.stringify({ email: ' Ada@Example.com', submission }))).toEqual({
      email: 'ada@example.com',
      role: 'client',
      submission,
    });
  });

  it('throws VALIDATION_FAILED with field errors for a bad payload', () => {
    let thrown: unknown;
    try {
      parseRequest(sparkContract, 'leads.create', JSON.stringify({ email: 'nope', role: 'pirate', submission }));
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).code).toBe('VALIDATION_FAILED');
    expect(Object.keys((thrown as DomainError).details?.fieldErrors ?? {}).sort()).toEqual(['email', 'role']);
  });

  it('refuses a pattern outside the contract as NOT_FOUND, and a payload that is not JSON', () => {
    expect(() => parseRequest(sparkContract, 'echo.slow', '{}')).toThrow(new DomainError('NOT_FOUND', 'Unknown message pattern echo.slow'));
    expect(() => parseRequest(sparkContract, 'leads.create', '{nope')).toThrow(new DomainError('VALIDATION_FAILED', 'The request is not valid JSON'));
  });
});

describe('parseEvent', () => {
  it('returns the parsed payload of an event of the contract and refuses any other', () => {
    expect(parseEvent(testContract, 'leads.noted', '{"note":"hi"}')).toEqual({ note: 'hi' });
    expect(() => parseEvent(testContract, 'leads.noted', '{"note":42}')).toThrow(/not valid/);
    expect(() => parseEvent(testContract, 'leads.create', '{}')).toThrow(/Unknown event pattern leads.create/);
  });

  it('knows no event in the product contract yet: every entry without a request id is refused', () => {
    expect(Object.keys(sparkContract.events)).toEqual([]);
  });
});

describe('parseResponse', () => {
  it('checks the answer as the caller will receive it (after JSON)', () => {
    const answer = { lead: { ...lead, createdAt: new Date('2025-01-01T00:00:00Z') }, challengeToken: 't' };

    expect(parseResponse(sparkContract, 'leads.create', answer)).toEqual({ lead, challengeToken: 't' });
  });

  it('throws when a handler breaks its contract', () => {
    expect(() => parseResponse(sparkContract, 'leads.create', { lead: { id: 'x' } })).toThrow(/leads\.create answered outside its contract/);
  });
});
