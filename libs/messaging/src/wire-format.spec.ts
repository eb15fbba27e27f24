import { DomainError } from '@spark/errors';
import { decodeEntry, decodeReply, encodeEntry, encodeReply, fromWireError, toWireError } from './wire-format';

describe('stream entries', () => {
  it('survive a round trip through XADD fields', () => {
    const request = {
      pattern: 'leads.create',
      data: '{"email":"a@b.co"}',
      id: 'r1',
      replyTo: 'spark:reply:c1',
      budgetMs: 5_000,
      correlationId: 'c-1',
    };

    expect(decodeEntry(encodeEntry(request))).toEqual(request);
  });

  it('leave the reply key, id and budget out of an event', () => {
    const event = { pattern: 'leads.noted', data: 'null', correlationId: 'c-2' };

    expect(encodeEntry(event)).toHaveLength(6);
    expect(decodeEntry(encodeEntry(event))).toEqual({
      ...event,
      id: undefined,
      replyTo: undefined,
      budgetMs: undefined,
    });
  });

  it('are not ours without a pattern or data', () => {
    expect(decodeEntry(['x', 'y'])).toBeUndefined();
  });
});

describe('replies', () => {
  it('decode what was encoded, and nothing that is not a reply', () => {
    const reply = { id: 'r1', error: { code: 'NOT_FOUND' as const, message: 'gone' } };

    expect(decodeReply(encodeReply(reply))).toEqual(reply);
    expect(decodeReply('not json')).toBeUndefined();
    expect(decodeReply('{"noId":true}')).toBeUndefined();
  });
});

describe('wire errors', () => {
  it('carry a DomainError with its details', () => {
    const fieldErrors = { email: ['Enter a valid email address'] };
    const error = new DomainError('VALIDATION_FAILED', 'bad', { fieldErrors });

    expect(toWireError(error)).toEqual({ code: 'VALIDATION_FAILED', message: 'bad', details: error.details });
    expect(fromWireError(toWireError(error)!)).toEqual(error);
  });

  it('accept the plain object Nest rethrows for a DomainError', () => {
    expect(toWireError({ code: 'CONFLICT', message: 'taken' })).toEqual({ code: 'CONFLICT', message: 'taken' });
  });

  it('refuse anything unexpected, so its text never reaches the caller', () => {
    expect(toWireError(new Error('secret'))).toBeUndefined();
    expect(toWireError({ status: 'error', message: 'Internal server error' })).toBeUndefined();
    expect(toWireError({ code: 'NO_SUCH_CODE', message: 'x' })).toBeUndefined();
  });
});
