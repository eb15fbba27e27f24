import { DomainError, ServiceUnavailableError } from './domain-error';

describe('DomainError', () => {
  it('maps its code to the HTTP status', () => {
    expect(new DomainError('LEAD_EXISTS', 'taken').status).toBe(409);
  });

  it('names the service that did not answer', () => {
    const error = new ServiceUnavailableError('leads', 300);

    expect(error).toBeInstanceOf(DomainError);
    expect(error.status).toBe(503);
    expect(error.message).toBe('leads-service did not answer within 300 ms');
    expect(error.details).toEqual({ service: 'leads-service' });
  });
});
