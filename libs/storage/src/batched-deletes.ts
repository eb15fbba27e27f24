/** S3's limit of keys per DeleteObjects request. */
export const MAX_KEYS_PER_DELETE = 1000;

/** What to do when a request of deletions fails: they are not tried again, so tell whoever watches the process. */
export type DeleteFailureListener = (error: unknown, batch: { bucket: string; keys: number }) => void;

/**
 * Deletions nobody waits for, sent together: the keys queued within `windowMs` of the first go to S3 in one request
 * per bucket, or at once when a bucket's keys reach S3's limit for one request. A request that fails, or a process that
 * dies before sending, leaves the objects for whatever sweeps their prefix, so only keys under a swept prefix belong
 * here.
 */
export class BatchedDeletes {
  private readonly queued = new Map<string, string[]>();
  private readonly sending = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly send: (bucket: string, keys: string[]) => Promise<void>,
    private readonly windowMs: number,
    private readonly onFailure: DeleteFailureListener = () => undefined,
  ) {}

  add(bucket: string, key: string): void {
    const keys = this.queued.get(bucket) ?? [];
    keys.push(key);
    this.queued.set(bucket, keys);
    if (keys.length >= MAX_KEYS_PER_DELETE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
  }

  /** Sends what is queued and waits for every request still on its way, this one's included. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // `add` sends a bucket's keys once they reach the limit, so no bucket holds more than one request's worth.
    for (const [bucket, keys] of this.queued) {
      const request = this.send(bucket, keys).catch((error: unknown) => this.onFailure(error, { bucket, keys: keys.length }));
      this.sending.add(request);
      void request.finally(() => this.sending.delete(request));
    }
    this.queued.clear();
    await Promise.all(this.sending);
  }
}
