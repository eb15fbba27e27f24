/** The cap on the team's new-lead alerts counts by hours of the clock, in UTC. */
export const HOUR_MS = 3_600_000;

/**
 * The start of the hour a test's leads fall in: the next one when this one is nearly over, so that none of them lands
 * in the hour after the digest's.
 */
export async function hourToSubmitIn(): Promise<number> {
  const leftOfHour = HOUR_MS - (Date.now() % HOUR_MS);
  if (leftOfHour < 90_000) await new Promise((resolve) => setTimeout(resolve, leftOfHour + 1_000));
  return Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
}
