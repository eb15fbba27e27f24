import { DomainError } from './domain-error';
import { parseRequest, parseResponse } from './contract-check';

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
    expect(parseRequest('leads.create', { email: ' Ada@Example.com' })).toEqual({
      email: 'ada@example.com',
      role: 'client',
    });
  });

  it('throws VALIDATION_FAILED with field errors for a bad payload', () => {
    let thrown: unknown;
    try {
      parseRequest('leads.create', { email: 'nope', role: 'pirate' });
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).code).toBe('VALIDATION_FAILED');
    expect(Object.keys((thrown as DomainError).details?.fieldErrors ?? {}).sort()).toEqual(['email', 'role']);
  });

  it('passes a pattern outside the contract through unchanged', () => {
    const data = { anything: true };

    expect(parseRequest('echo.slow', data)).toBe(data);
  });
});

describe('parseResponse', () => {
  it('checks the answer as the caller will receive it (after JSON)', () => {
    const answer = { lead: { ...lead, createdAt: new Date('2025-01-01T00:00:00Z') }, challengeToken: 't' };

    expect(parseResponse('leads.create', answer)).toEqual({ lead, challengeToken: 't' });
  });

  it('throws when a handler breaks its contract', () => {
    expect(() => parseResponse('leads.create', { lead: { id: 'x' } })).toThrow(
      /leads\.create answered outside its contract/,
    );
  });
});
