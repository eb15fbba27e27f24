// `node -r @swc-node/register scripts/capacity.ts`: what 10 000, 100 000 and 1 000 000 daily active clients need,
// from the latest `npm run bench` table in docs/benchmarks.md (so the model follows the figures when they change)
// and the assumptions below, each stated. Prints a Markdown table; docs/operations.md shows its output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Throughput one copy of the product measured on the benchmark machine (2 cores), from the bench table. */
export interface MeasuredCapacity {
  leadsPerSecond: number;
  capturesPerSecond: number;
  dashboardLoadsPerSecond: number;
  ditlJobsPerSecondPerWorker: number;
}

/** Every assumption of the model, named so a reader can disagree with one. */
export const ASSUMPTIONS = {
  sparksPerClientPerDay: 2,
  /** Share of a day's traffic in its busiest hour. */
  peakHourShare: 0.15,
  clientsPerCoach: 50,
  dashboardLoadsPerCoachPerDay: 30,
  /** New clients a day, as a share of the active ones: each submits a lead, onboards and gets a DITL. */
  newClientShare: 0.01,
  /** Keep every machine below this share of what it did at saturation. */
  utilisation: 0.6,
  sparkFileMegabytes: 1.5,
  /** How often a spark's file is downloaded (the client, the coach, the export). */
  downloadsPerSpark: 3,
  sparkRowKilobytes: 1,
  clientRowsKilobytes: 8,
  mailJobKilobytes: 2,
  /** Bus requests a capture or a dashboard load makes, for Redis in flight. */
  requestsInFlightSeconds: 5,
  dbPoolPerReplica: 10,
  /** Processes on each machine that hold a PostgreSQL pool (six services and the notifier). */
  pooledProcessesPerMachine: 7,
  /** Server connections a transaction-mode pooler (PgBouncer) keeps open to PostgreSQL, whatever the app side. */
  poolerServerConnections: 20,
};

const perPeakSecond = (perDay: number) => (perDay * ASSUMPTIONS.peakHourShare) / 3600;

/** The figures the model needs from the `npm run bench` table; throws naming any it cannot find. */
export function measuredCapacity(markdown: string): MeasuredCapacity {
  const section = markdown.slice(markdown.indexOf('## All benchmarks at once'));
  const figureOf = (measure: RegExp): string => {
    const row = section.split('\n').find((line) => line.startsWith('|') && measure.test(line.split('|')[2] ?? ''));
    if (!row) throw new Error(`docs/benchmarks.md has no "${measure.source}" figure in its npm run bench table`);
    return row.split('|')[3]?.trim() ?? '';
  };
  const number = (text: string, pattern: RegExp, what: string) => {
    const found = pattern.exec(text)?.[1];
    if (!found) throw new Error(`cannot read ${what} from "${text}"`);
    return Number(found);
  };
  const ditlSeconds = number(figureOf(/DITL queue, \d+ jobs on 1 worker/), /([\d.]+) s/, 'the DITL queue time');
  const ditlJobs = number(section.match(/DITL queue, (\d+) jobs on 1 worker/)?.[0] ?? '', /(\d+) jobs/, 'the DITL job count');
  return {
    leadsPerSecond: number(figureOf(/throughput against the monolith/), /\((\d+) \//, 'lead submissions per second'),
    capturesPerSecond: number(figureOf(/capture, \d+ clients saturated/), /, (\d+)\/s/, 'captures per second'),
    dashboardLoadsPerSecond: number(figureOf(/coach dashboard, leads page/), /([\d.]+) loads\/s/, 'dashboard loads per second'),
    ditlJobsPerSecondPerWorker: ditlJobs / ditlSeconds,
  };
}

export interface CapacityRow {
  clients: number;
  gatewayAndServiceMachines: number;
  ditlWorkers: number;
  postgresGigabytesAfterAYear: number;
  postgresServerConnections: string;
  redisMegabytes: number;
  s3TerabytesPerMonth: number;
  egressTerabytesPerMonth: number;
  firstToSaturate: string;
}

/** What `clients` daily active clients need, with `measured` the throughput of one 2-core copy of the product. */
export function capacityFor(clients: number, measured: MeasuredCapacity): CapacityRow {
  const a = ASSUMPTIONS;
  const sparksPerDay = clients * a.sparksPerClientPerDay;
  const newClientsPerDay = clients * a.newClientShare;
  const loads = perPeakSecond((clients / a.clientsPerCoach) * a.dashboardLoadsPerCoachPerDay);
  // The share of one machine each kind of work takes at the peak: they add up on the same cores.
  const shares = {
    capture: perPeakSecond(sparksPerDay) / (measured.capturesPerSecond * a.utilisation),
    'coach dashboard': loads / (measured.dashboardLoadsPerSecond * a.utilisation),
    'lead submission': perPeakSecond(newClientsPerDay) / (measured.leadsPerSecond * a.utilisation),
  };
  const machines = Math.max(1, Math.ceil(Object.values(shares).reduce((sum, share) => sum + share, 0)));
  const ditlWorkers = Math.max(1, Math.ceil(perPeakSecond(newClientsPerDay) / (measured.ditlJobsPerSecondPerWorker * a.utilisation)));
  const [firstToSaturate] = Object.entries(shares).sort(([, x], [, y]) => y - x)[0] ?? ['capture'];
  const sparkRowsGigabytes = (sparksPerDay * 365 * a.sparkRowKilobytes) / 1024 ** 2;
  const clientRowsGigabytes = ((clients + newClientsPerDay * 365) * a.clientRowsKilobytes) / 1024 ** 2;
  const storageTerabytes = (sparksPerDay * 30 * a.sparkFileMegabytes) / 1024 ** 2;
  const inFlightRequests = (perPeakSecond(sparksPerDay) + loads) * a.requestsInFlightSeconds;
  const mailJobsKeptADay = newClientsPerDay * 3;
  return {
    clients,
    gatewayAndServiceMachines: machines,
    ditlWorkers,
    postgresGigabytesAfterAYear: Math.ceil(sparkRowsGigabytes + clientRowsGigabytes),
    postgresServerConnections: `${machines * a.pooledProcessesPerMachine * a.dbPoolPerReplica} app-side, ${a.poolerServerConnections} through a pooler`,
    redisMegabytes: Math.ceil((inFlightRequests * 0.5 + mailJobsKeptADay * a.mailJobKilobytes) / 1024 + 64),
    s3TerabytesPerMonth: Number(storageTerabytes.toFixed(2)),
    egressTerabytesPerMonth: Number((storageTerabytes * a.downloadsPerSpark).toFixed(2)),
    firstToSaturate,
  };
}

export function capacityTable(measured: MeasuredCapacity, clientCounts = [10_000, 100_000, 1_000_000]): string {
  const rows = clientCounts.map((clients) => capacityFor(clients, measured));
  return [
    `Measured on one 2-core machine (latest \`npm run bench\`): ${measured.leadsPerSecond} leads/s, ${measured.capturesPerSecond} captures/s, ` +
      `${measured.dashboardLoadsPerSecond} dashboard loads/s, ${measured.ditlJobsPerSecondPerWorker.toFixed(2)} DITL jobs/s per worker.`,
    '',
    '| daily active clients | 2-core machines (gateway + services) | DITL workers | PostgreSQL after a year | PostgreSQL connections | Redis | S3 added per month | S3 egress per month | saturates first |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.clients.toLocaleString('en')} | ${row.gatewayAndServiceMachines} | ${row.ditlWorkers} | ${row.postgresGigabytesAfterAYear} GB | ${row.postgresServerConnections} | ${row.redisMegabytes} MB | ${row.s3TerabytesPerMonth} TB | ${row.egressTerabytesPerMonth} TB | ${row.firstToSaturate} |`,
    ),
  ].join('\n');
}

if (require.main === module) {
  const markdown = readFileSync(join(__dirname, '..', 'docs', 'benchmarks.md'), 'utf8');
  process.stdout.write(`${capacityTable(measuredCapacity(markdown))}\n`);
}
