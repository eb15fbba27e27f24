import { DomainError } from './domain-error';

describe('DomainError', () => {
  it('maps its code to the HTTP status', () => {
    expect(new DomainError('LEAD_EXISTS', 'taken').status).toBe(409);
  });
});
