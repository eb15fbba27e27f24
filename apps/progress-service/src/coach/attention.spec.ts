import { attentionOf } from './attention';

describe('attentionOf', () => {
  const active = { status: 'active', evolutionNumber: 1, hasSparked: true };

  it('leaves a client who sparked yesterday alone', () => {
    expect(attentionOf({ ...active, idleDays: 1 })).toEqual({ slipping: false, reason: null });
  });

  it('flags a streak broken yesterday', () => {
    expect(attentionOf({ ...active, idleDays: 2 })).toEqual({ slipping: true, reason: 'Streak broken: no spark yesterday' });
  });

  it('says how many days passed without a spark', () => {
    expect(attentionOf({ ...active, idleDays: 5 }).reason).toBe('No spark for 5 days');
  });

  it('flags a client who never sparked since the cycle began', () => {
    expect(attentionOf({ ...active, hasSparked: false, idleDays: 3 }).reason).toBe('No sparks yet, 3 days into Evolution 1');
  });

  it('never flags a paused or completed client', () => {
    expect(attentionOf({ ...active, status: 'paused', idleDays: 30 }).slipping).toBe(false);
  });
});
