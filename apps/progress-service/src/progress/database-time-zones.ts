import type { DataSource } from 'typeorm';

const FALLBACK_ZONE = 'UTC';

/** The name ICU gives `zone` today (an old alias becomes its current zone), or undefined when it knows none. */
function currentName(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * The zone to store for a zone the device sent: itself when the database knows it, else its current
 * name when the database knows that, else UTC. The device chose the zone, not the person, so a zone the
 * database cannot use never refuses a capture or an onboarding; an alias keeps the person's own days.
 */
export function storableTimeZone(zone: string, databaseZones: ReadonlySet<string>): string {
  if (databaseZones.has(zone)) return zone;
  const current = currentName(zone);
  return current !== undefined && databaseZones.has(current) ? current : FALLBACK_ZONE;
}

export interface TimeZoneResolver {
  storable(zone: string): Promise<string>;
}

/** The database's zone names, read once per process (the view costs ~40 ms: it reads the zone files). */
export class DatabaseTimeZones implements TimeZoneResolver {
  private names?: Promise<ReadonlySet<string>>;

  constructor(private readonly dataSource: DataSource) {}

  async storable(zone: string): Promise<string> {
    this.names ??= this.load();
    try {
      return storableTimeZone(zone, await this.names);
    } catch (error) {
      // A failed read is not cached: the next write tries again.
      this.names = undefined;
      throw error;
    }
  }

  private async load(): Promise<ReadonlySet<string>> {
    const rows: { name: string }[] = await this.dataSource.query('SELECT name FROM pg_timezone_names');
    return new Set(rows.map((row) => row.name));
  }
}
