import { storableTimeZone } from './database-time-zones';

// A few of PostgreSQL's names: it dropped US/Pacific-New, which Node's ICU still accepts as an alias.
const databaseZones = new Set(['America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Calcutta', 'UTC']);

describe('the time zone stored for a zone the device sent', () => {
  it('is the zone itself when the database knows it', () => {
    expect(storableTimeZone('Europe/Berlin', databaseZones)).toBe('Europe/Berlin');
    expect(storableTimeZone('Asia/Calcutta', databaseZones)).toBe('Asia/Calcutta');
  });

  it("is the alias's current zone when only that is known, so the person keeps their own calendar days", () => {
    expect(storableTimeZone('US/Pacific-New', databaseZones)).toBe('America/Los_Angeles');
  });

  it('is UTC when neither the zone nor its current name is known', () => {
    expect(storableTimeZone('America/Ciudad_Juarez', databaseZones)).toBe('UTC');
    expect(storableTimeZone('Not/A_Zone', databaseZones)).toBe('UTC');
  });
});
