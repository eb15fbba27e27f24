import type { OnboardingAnswersInput } from '@spark/contracts';
import { keepNewDitlRequest, pendingDitlRequestOf, settleDitlRequest } from './pending-ditl-request';
import { installMemoryLocalStorage } from '../../lib/memory-local-storage.testing';

const owner = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const someoneElse = '1a2b3c4d-5e6f-4a70-8b9c-0d1e2f3a4b5c';
const answers = { firstName: 'Maya', transformationGoal: 'Run a half marathon by June' } as OnboardingAnswersInput;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const stored = installMemoryLocalStorage();
const kept = () => JSON.parse(stored.get('spark_ditl_request_pending') ?? 'null') as unknown;

describe('the DITL request kept on the device', () => {
  beforeEach(() => stored.clear());

  it('gets its id once, when it is kept, and every read gives that id', () => {
    const request = keepNewDitlRequest(owner, answers);
    expect(request.requestId).toMatch(uuid);
    expect(kept()).toEqual({ userId: owner, answers, requestId: request.requestId });
    expect(pendingDitlRequestOf(owner)).toEqual(request);
    expect(pendingDitlRequestOf(owner)).toEqual(request);
  });

  it('gets a new id for a new request', () => {
    const first = keepNewDitlRequest(owner, answers);
    expect(keepNewDitlRequest(owner, answers).requestId).not.toBe(first.requestId);
  });

  it('gives one kept by the previous release, without an id, an id when it is first read, and keeps it', () => {
    const previous = { userId: owner, answers, onboardingCompletedAt: '2026-12-01T12:00:00.000Z' };
    stored.set('spark_ditl_request_pending', JSON.stringify(previous));
    const request = pendingDitlRequestOf(owner);
    expect(request?.requestId).toMatch(uuid);
    expect(kept()).toEqual({ ...previous, requestId: request?.requestId });
    expect(pendingDitlRequestOf(owner)).toEqual(request);
  });

  it('is not another person’s to send: one kept by someone else counts as none, and keeps no id it was not given', () => {
    const previous = JSON.stringify({ userId: owner, answers, onboardingCompletedAt: '2026-12-01T12:00:00.000Z' });
    stored.set('spark_ditl_request_pending', previous);
    expect(pendingDitlRequestOf(someoneElse)).toBeNull();
    expect(stored.get('spark_ditl_request_pending')).toBe(previous);
  });

  it('goes once it is settled, its generation kept', () => {
    keepNewDitlRequest(owner, answers);
    settleDitlRequest(owner, '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a');
    expect(pendingDitlRequestOf(owner)).toBeNull();
    expect(stored.get('spark_ditl_generation_id')).toBe('0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a');
  });
});
