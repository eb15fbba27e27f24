// Where a request's time went, read off the product's own Prometheus histograms: the mean time a process spent on
// it by its own clock (the gateway's HTTP handling, its wait for the bus's answer, the service's handling), over one
// run. What the load generator saw minus the gateway's HTTP time was spent in sockets and waiting to be read; the
// bus's round trip minus the service's handling, in Redis and in queues on either side.

/** A histogram's series as `name{labels}` → [sum, count], from one scrape. */
type Scrape = Map<string, [number, number]>;

export interface MetricsPage {
  /** Shown in the report, e.g. 'gateway'. */
  name: string;
  url: string;
}

const HISTOGRAMS = ['http_request_duration_seconds', 'bus_client_request_duration_seconds', 'bus_request_duration_seconds'];

async function scrape(page: MetricsPage): Promise<Scrape> {
  const text = await (await fetch(page.url)).text();
  const series: Scrape = new Map();
  for (const line of text.split('\n')) {
    const match = /^(\w+)_(sum|count)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match?.[1] || !HISTOGRAMS.includes(match[1])) continue;
    const labels = [...(match[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].filter(([, name]) => name !== 'app').map(([, name, value]) => `${name}=${value}`);
    const key = `${page.name} ${match[1]} ${labels.join(' ')}`;
    const entry = series.get(key) ?? [0, 0];
    entry[match[2] === 'sum' ? 0 : 1] = Number(match[4]);
    series.set(key, entry);
  }
  return series;
}

/** Runs `run`; `stages` has a line per histogram series that moved: its mean in ms over the run and how many it counted. */
export async function measureStages<T>(pages: MetricsPage[], run: () => Promise<T>): Promise<{ result: T; stages: string[] }> {
  const before = await Promise.all(pages.map(scrape));
  const result = await run();
  const after = await Promise.all(pages.map(scrape));
  const stages: string[] = [];
  after.forEach((series, index) => {
    for (const [key, [sum, count]] of [...series].sort(([a], [b]) => a.localeCompare(b))) {
      const [sumBefore, countBefore] = before[index]?.get(key) ?? [0, 0];
      const counted = count - countBefore;
      if (counted > 0) stages.push(`${key}: mean ${(((sum - sumBefore) / counted) * 1000).toFixed(2)} ms over ${counted}`);
    }
  });
  return { result, stages };
}
