import { DomainError } from '@spark/errors';
import { ServiceUnavailableError } from './service-unavailable';

describe('ServiceUnavailableError', () => {
  it('names the service that did not answer', () => {
    const error = new ServiceUnavailableError('leads', 300);

    expect(error).toBeInstanceOf(DomainError);
    expect(error.status).toBe(503);
    expect(error.message).toBe('leads-service did not answer within 300 ms');
    expect(error.details).toEqual({ service: 'leads-service' });
  });
});
