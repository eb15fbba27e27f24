/**
 * One read shared by every caller that asks while it is queued: at most one query runs and one waits,
 * however many coaches open the dashboard at once. A caller never joins a read already in flight
 * (it may have started before the caller's own write committed), only the next one, so it still
 * sees every write that committed before it asked.
 */
export class CoalescedRead<T> {
  private running: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<T> {
    const run = this.read().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}
