import { GCProfiler } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectYoungGarbage } from './young-garbage';

describe('collectYoungGarbage', () => {
  it('runs a young-generation GC (a scavenge)', () => {
    const profiler = new GCProfiler();
    profiler.start();
    collectYoungGarbage();
    collectYoungGarbage();
    const scavenges = profiler.stop()?.statistics.filter((gc) => gc.gcType === 'Scavenge') ?? [];
    expect(scavenges.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves gc() exposed to no context, this one or a later one', () => {
    collectYoungGarbage();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
