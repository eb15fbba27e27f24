import { capacityFor, measuredCapacity } from './capacity';

const benchmarks = `# Benchmarks

## All benchmarks at once (\`npm run bench\`)
| benchmark | measure | figure | target | |
|---|---|---|---|---|
| lead submission | lead submission, throughput against the monolith | 20 % (300 / 1500 req/s) | ≥ 60 % | **missed** |
| coach dashboard | coach dashboard, leads page + counters, saturated | p95 100.0 ms, 200 loads/s | p95 ≤ 50 ms | **missed** |
| capture | capture, 20 clients saturated | p95 150 ms, 100/s, 0 failed | p95 ≤ 150 ms | met |
| DITL queue | DITL queue, 100 jobs on 1 worker | 20.00 s | ≤ 22 s | met |
`;

describe('the capacity model', () => {
  it('reads the throughput of one machine from the npm run bench table', () => {
    expect(measuredCapacity(benchmarks)).toEqual({ leadsPerSecond: 300, capturesPerSecond: 100, dashboardLoadsPerSecond: 200, ditlJobsPerSecondPerWorker: 5 });
  });

  it('says which figure it is missing instead of inventing one', () => {
    expect(() => measuredCapacity(benchmarks.replace(/\| capture \|.*\n/, ''))).toThrow('capture');
  });

  it('adds up the work each kind of request puts on the same machines at the peak hour', () => {
    // 1 000 000 clients: 2 000 000 sparks a day, 15 % in the peak hour = 83.3/s against 100/s × 0.6 = 1.39 machines;
    // 20 000 coaches × 30 loads = 25/s against 120/s = 0.21; 10 000 leads a day = 0.42/s against 180/s: 1.60 → 2.
    const row = capacityFor(1_000_000, measuredCapacity(benchmarks));
    expect(row).toMatchObject({
      gatewayAndServiceMachines: 2,
      ditlWorkers: 1,
      firstToSaturate: 'capture',
      postgresServerConnections: '140 app-side, 20 through a pooler',
    });
    // 2 000 000 sparks × 30 days × 1.5 MB.
    expect(row.s3TerabytesPerMonth).toBeCloseTo(85.83, 2);
  });
});
