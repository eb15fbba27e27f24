// The CPU time each process of a benchmark spends while a load runs, so a figure says where the time went:
// the apps, PostgreSQL, the Redis server and the load generator.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { Client } from 'pg';

/** Named groups of pids, e.g. { gateway: [123], postgres: [456, 457] }. */
export type ProcessGroups = Record<string, number[]>;

/**
 * The groups for a product run: its apps, PostgreSQL (every server process: the backends of `databaseUrl`'s
 * pools, and the WAL writer and checkpointer their commits keep busy), Redis and this process.
 */
export async function productProcesses(apps: { name: string; pid: number }[], databaseUrl: string, redisUrl: string): Promise<ProcessGroups> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  const { rows } = await pg.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()');
  await pg.end();
  const redis = new Redis(redisUrl);
  const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  redis.disconnect();
  const groups: ProcessGroups = {};
  for (const { name, pid } of apps) groups[name] = [...(groups[name] ?? []), pid];
  return { ...groups, postgres: rows.map(({ pid }) => pid), 'redis-server': [redisPid], 'load generator': [process.pid] };
}

/** utime + stime in ms (clock ticks of 10 ms); undefined once the process has exited. */
function cpuMsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * The CPU ms each group spent while `run` ran. Every pid is sampled five times a second, so a process that ends
 * during the run (a pooled PostgreSQL connection closed while idle) counts with the last figure read for it.
 */
export async function measureCpu<T>(groups: ProcessGroups, run: () => Promise<T>): Promise<{ result: T; cpuMs: Record<string, number> }> {
  const pids = Object.values(groups).flat();
  const before = new Map(pids.map((pid) => [pid, cpuMsOf(pid) ?? 0]));
  const last = new Map(before);
  const sample = () => pids.forEach((pid) => last.set(pid, cpuMsOf(pid) ?? last.get(pid) ?? 0));
  const sampler = setInterval(sample, 200);
  try {
    const result = await run();
    sample();
    const cpuMs = Object.fromEntries(
      Object.entries(groups).map(([name, members]) => [name, members.reduce((sum, pid) => sum + (last.get(pid) ?? 0) - (before.get(pid) ?? 0), 0)]),
    );
    return { result, cpuMs };
  } finally {
    clearInterval(sampler);
  }
}

/** "gateway 0.52, leads-service 0.61, …" in ms per unit of work; groups under 10 ms in all are left out as noise. */
export function cpuPer(cpuMs: Record<string, number>, units: number): string {
  return Object.entries(cpuMs)
    .filter(([, ms]) => ms >= 10)
    .map(([name, ms]) => `${name} ${(ms / units).toFixed(2)}`)
    .join(', ');
}
