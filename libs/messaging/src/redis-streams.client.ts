import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { serviceOf } from '@spark/contracts';
import { currentCorrelationId, newCorrelationId, type Logger } from '@spark/logging';
import Redis from 'ioredis';
import type { SigningKeys } from '@spark/config';
import { DomainError } from '@spark/errors';
import type { BusAdmission } from './bus-admission';
import { signedEntry } from './bus-signatures';
import { ServiceUnavailableError } from './service-unavailable';
import { outgoingRequestId } from './request-scope';
import { DEFAULT_PREFIX, replyListKey, requestStreamKey } from './stream-keys';
import { unlessAborted } from './unless-aborted';
import { decodeReply, encodeEntry, fromWireError, type RequestEntry } from './wire-format';

export interface RedisStreamsClientOptions {
  redisUrl: string;
  prefix?: string;
  /** The app asking (`gateway`, `leads`…): its reply lists carry its name, which its Redis user alone may read. */
  app: string;
  /** Default deadline of a request. */
  timeoutMs?: number;
  logger: Logger;
  /** Told how each request ended, for metrics. */
  observer?: BusClientObserver;
  /** Entries older than this are trimmed from the streams this client writes to: nobody can still want them. */
  maxEntryAgeMs?: number;
  /** Signs each request as `app` (`signedEntry`), for a service that checks who sent it; without, requests go unsigned. */
  signingKeys?: SigningKeys;
}

export interface BusClientObserver {
  /** An answer arrived: a response (`ok`) or a domain error (`error`), `seconds` after the request was sent. */
  answered(pattern: string, outcome: 'ok' | 'error', seconds: number): void;
  /** No answer before the deadline. */
  timedOut(pattern: string): void;
}

interface PendingRequest {
  pattern: string;
  service: string;
  sentAt: bigint;
  timer: NodeJS.Timeout;
  resolve: (response: unknown) => void;
  reject: (error: DomainError) => void;
}

const REPLY_BLOCK_SECONDS = 5;
const REPLY_DRAIN_BATCH = 100;
// Bounds for a stream nobody consumes (its service is down); live consumers delete what they handle. The count
// caps a burst, the age (well past the longest deadline a caller may set) what a long outage leaves behind.
const STREAM_MAX_LENGTH = 100_000;
const MAX_ENTRY_AGE_MS = 5 * 60_000;
const TRIM_BY_AGE_EVERY_MS = 10_000;

/**
 * Sends each request to the stream of the service named by its pattern and waits for the answer
 * on this instance's own reply list. See docs/messaging.md.
 */
export class RedisStreamsClient extends ClientProxy {
  readonly clientId = randomUUID();
  private readonly prefix: string;
  private readonly replyKey: string;
  private readonly timeoutMs: number;
  private readonly maxEntryAgeMs: number;
  private readonly log: Logger;
  private commands?: Redis;
  private replies?: Redis;
  private opening?: Promise<void>;
  private replyLoop?: Promise<void>;
  private closing = new AbortController();
  private readonly pending = new Map<string, PendingRequest>();
  /** The answers to requests sent with an id their caller chose, while they are awaited. */
  private readonly keyedInFlight = new Map<string, Promise<unknown>>();
  /** When each stream was last trimmed by age, so a busy caller trims once per interval, not per request. */
  private readonly trimmedAt = new Map<string, number>();

  constructor(private readonly options: RedisStreamsClientOptions) {
    super();
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.replyKey = replyListKey(this.prefix, options.app, this.clientId);
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.maxEntryAgeMs = options.maxEntryAgeMs ?? MAX_ENTRY_AGE_MS;
    this.log = options.logger.child({ transport: 'redis-streams', clientId: this.clientId });
  }

  connect(): Promise<void> {
    this.opening ??= this.open();
    return this.opening;
  }

  /**
   * Sends a request and resolves with the handler's answer; rejects with a DomainError. With an `admission`, the
   * request goes on the bus only if it admits it, and a refusal is the rejection. A `requestId` the caller chose (a
   * person's Idempotency-Key, `keyedRequestId`) replaces the one `outgoingRequestId` would give; callers asking with an
   * id already in flight here share its answer.
   */
  request(pattern: string, data: unknown, timeoutMs = this.timeoutMs, admission?: BusAdmission, requestId?: string): Promise<unknown> {
    if (requestId === undefined) return this.requestWithId(outgoingRequestId(), pattern, data, timeoutMs, admission);
    // A second entry with the same id would take the first's place in `pending`, and the first caller would never hear.
    const inFlight = this.keyedInFlight.get(requestId);
    if (inFlight) return inFlight;
    const sent = this.requestWithId(requestId, pattern, data, timeoutMs, admission);
    this.keyedInFlight.set(requestId, sent);
    const forget = () => {
      if (this.keyedInFlight.get(requestId) === sent) this.keyedInFlight.delete(requestId);
    };
    void sent.then(forget, forget);
    return sent;
  }

  private async requestWithId(id: string, pattern: string, data: unknown, timeoutMs: number, admission?: BusAdmission): Promise<unknown> {
    await this.connect();
    return new Promise((resolve, reject) => this.startRequest(id, pattern, data, timeoutMs, resolve, reject, admission));
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const [id, request] of this.pending) {
      clearTimeout(request.timer);
      this.pending.delete(id);
      const service = `${request.service}-service`;
      request.reject(new DomainError('SERVICE_UNAVAILABLE', `The client closed before ${service} answered`, { service }));
    }
    // Disconnecting aborts the blocking BLMPOP at once, but not while the connection waits to reconnect (see
    // `unlessAborted`): the loop stops on `closing` too. A command connection that is down is just dropped.
    this.replies?.disconnect();
    await this.replyLoop;
    if (this.commands?.status === 'ready') {
      await this.commands.del(this.replyKey).catch(() => undefined);
      await this.commands.quit().catch(() => undefined);
    } else this.commands?.disconnect();
    this.opening = undefined;
  }

  unwrap<T>(): T {
    if (!this.commands || !this.replies) throw new Error('RedisStreamsClient is not connected yet');
    return [this.commands, this.replies] as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const id = this.startRequest(
      outgoingRequestId(),
      this.normalizePattern(packet.pattern),
      packet.data,
      this.timeoutMs,
      (response) => callback({ response, isDisposed: true }),
      (error) => callback({ err: error }),
    );
    // Unsubscribing stops waiting; a late answer is then ignored.
    return () => {
      const request = this.pending.get(id);
      if (request) clearTimeout(request.timer);
      this.pending.delete(id);
    };
  }

  protected async dispatchEvent<T = undefined>(packet: ReadPacket): Promise<T> {
    await this.connect();
    const pattern = this.normalizePattern(packet.pattern);
    const data = JSON.stringify(packet.data ?? null);
    await this.add(pattern, { pattern, data, correlationId: this.correlationId() });
    return undefined as T;
  }

  private async open(): Promise<void> {
    this.closing = new AbortController();
    this.commands = this.connection('commands', { enableAutoPipelining: true });
    // Blocking reads must survive a Redis restart instead of failing.
    this.replies = this.connection('replies', { maxRetriesPerRequest: null });
    await Promise.all([this.commands.connect(), this.replies.connect()]);
    this.replyLoop = this.readReplies(this.replies, this.closing.signal);
  }

  private connection(role: string, extra: { enableAutoPipelining?: boolean; maxRetriesPerRequest?: null }): Redis {
    const redis = new Redis(this.options.redisUrl, { lazyConnect: true, ...extra });
    redis.on('error', (error: Error) => this.log.warn({ err: error, role }, 'redis connection error'));
    return redis;
  }

  private startRequest(
    id: string,
    pattern: string,
    data: unknown,
    timeoutMs: number,
    resolve: (response: unknown) => void,
    reject: (error: DomainError) => void,
    admission?: BusAdmission,
  ): string {
    const service = serviceOf(pattern);
    const timer = setTimeout(() => {
      if (!this.pending.delete(id)) return;
      this.options.observer?.timedOut(pattern);
      reject(new ServiceUnavailableError(service, timeoutMs));
    }, timeoutMs);
    this.pending.set(id, { pattern, service, sentAt: process.hrtime.bigint(), timer, resolve, reject });
    const entry: RequestEntry = {
      pattern,
      data: JSON.stringify(data ?? null),
      id,
      replyTo: this.replyKey,
      budgetMs: timeoutMs,
      correlationId: this.correlationId(),
    };
    const { signingKeys } = this.options;
    this.add(pattern, signingKeys ? signedEntry(signingKeys, this.options.app, entry) : entry, admission).catch((error: unknown) => {
      const refused = admission && error instanceof DomainError;
      if (!refused) this.log.error({ err: error, pattern }, 'could not send a request');
      if (!this.pending.delete(id)) return;
      clearTimeout(timer);
      const details = { service: `${service}-service` };
      reject(refused ? error : new DomainError('SERVICE_UNAVAILABLE', 'The message bus is unavailable', details));
    });
    return id;
  }

  private async add(pattern: string, entry: RequestEntry, admission?: BusAdmission): Promise<void> {
    if (!this.commands) throw new Error('RedisStreamsClient is not connected');
    const stream = requestStreamKey(this.prefix, serviceOf(pattern));
    const args = ['MAXLEN', '~', STREAM_MAX_LENGTH, '*', ...encodeEntry(entry)];
    if (admission) await admission.runIfAdmitted({ name: 'XADD', key: stream, args });
    else await this.commands.xadd(stream, ...args);
    this.trimByAge(stream);
  }

  /**
   * Drops entries older than the age limit (XTRIM MINID: entry ids begin with Redis's time of adding, compared here
   * with this host's clock; a skew of seconds moves a minutes-long limit by as much). Failure only delays it.
   */
  private trimByAge(stream: string): void {
    const now = Date.now();
    if (now - (this.trimmedAt.get(stream) ?? 0) < Math.min(TRIM_BY_AGE_EVERY_MS, this.maxEntryAgeMs)) return;
    this.trimmedAt.set(stream, now);
    this.commands?.xtrim(stream, 'MINID', '~', `${now - this.maxEntryAgeMs}-0`).catch((error: unknown) => {
      this.log.warn({ err: error, stream }, 'trimming old entries failed');
    });
  }

  private correlationId(): string {
    return currentCorrelationId() ?? newCorrelationId();
  }

  private async readReplies(replies: Redis, closing: AbortSignal): Promise<void> {
    while (!closing.aborted) {
      try {
        // Waits for the first reply and takes what queued up with it, in one round trip.
        const popped = await unlessAborted(replies.blmpop(REPLY_BLOCK_SECONDS, 1, this.replyKey, 'LEFT', 'COUNT', REPLY_DRAIN_BATCH), closing);
        for (const json of popped?.[1] ?? []) this.settle(json);
      } catch (error) {
        if (closing.aborted) return;
        this.log.warn({ err: error }, 'reading replies failed; retrying');
        await sleep(200);
      }
    }
  }

  private settle(json: string): void {
    const reply = decodeReply(json);
    const request = reply && this.pending.get(reply.id);
    if (!reply || !request) {
      this.log.debug({ replyId: reply?.id }, 'ignoring a reply nobody waits for');
      return;
    }
    this.pending.delete(reply.id);
    clearTimeout(request.timer);
    const seconds = Number(process.hrtime.bigint() - request.sentAt) / 1e9;
    this.options.observer?.answered(request.pattern, reply.error ? 'error' : 'ok', seconds);
    if (reply.error) request.reject(fromWireError(reply.error));
    else request.resolve(reply.response);
  }
}
