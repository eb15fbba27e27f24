import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Server, type CustomTransportStrategy, type MessageHandler, type MsPattern } from '@nestjs/microservices';
import type { SigningKeys } from '@spark/config';
import { serviceOf, speaksForAnother } from '@spark/contracts';
import { newCorrelationId, runWithCorrelationId, type Logger } from '@spark/logging';
import Redis from 'ioredis';
import { lastValueFrom } from 'rxjs';
import { type BusContract, isEventPattern, isReplaySafe, isRequestPattern, parseEvent, parseRequest, parseResponse, sparkContract } from './contract-check';
import { DomainError } from '@spark/errors';
import { senderRefusal } from './bus-signatures';
import { RedisStreamsContext } from './redis-streams.context';
import { isKeyedRequestId } from './keyed-requests';
import { runInRequestScope } from './request-scope';
import { deadConsumers, entriesOfReadGroup, parseAutoClaim, parseConsumers } from './redis-replies';
import { DEFAULT_PREFIX, isReplyListKey, requestStreamKey } from './stream-keys';
import { unlessAborted } from './unless-aborted';
import { decodeEntry, encodeReply, toWireError, type Reply, type RequestEntry, type WireError } from './wire-format';

export interface RedisStreamsServerOptions {
  redisUrl: string;
  /** The service whose stream this replica consumes, e.g. 'leads'. */
  service: string;
  prefix?: string;
  consumerName?: string;
  /** Max handlers running at once in this replica. */
  concurrency?: number;
  /** An entry pending this long on a silent consumer is taken over by another replica. */
  reclaimIdleMs?: number;
  /** The patterns this bus carries; the product's own unless a test brings its own. */
  contract?: BusContract;
  logger: Logger;
  /** How long `close()` waits for running handlers to finish and answer (their claims kept fresh meanwhile). */
  drainTimeoutMs?: number;
  /** Told what the replica does, for metrics; the transport itself keeps no counters. */
  observer?: BusServerObserver;
  /** Where commands (requests not marked replay-safe in the contract) record their outcome with their effect. */
  ledger?: CommandLedger;
  /**
   * Runs only the requests whose sender may send their pattern and signed them (`senderRefusal`): the product's
   * services always; a test's own contract may go without.
   */
  signingKeys?: SigningKeys;
}

/** What a request ended with, as the caller will be told. */
export type RequestOutcome = Omit<Reply, 'id'>;

/**
 * Runs a command at most once per request id: its effect and its outcome are committed together, and a
 * `redelivered` request that already ran gets the stored outcome. Throwing from `run` undoes its effect.
 */
export interface CommandLedger {
  once(request: LedgerRequest, run: () => Promise<RequestOutcome>): Promise<RequestOutcome>;
}

export interface LedgerRequest {
  requestId: string;
  pattern: string;
  redelivered: boolean;
  /** Local epoch ms by which the effect must be committed, or not at all; undefined when the caller waits forever. */
  deadline?: number;
}

interface AnswerBatch {
  answers: { entryId: string; replyTo: string; reply: Reply }[];
  sent: Promise<void>;
}

/** A failure that means "not done, try again": the command's effect is undone and nothing is recorded. */
class NotDone extends Error {
  constructor(readonly wireError: WireError) {
    super(wireError.message);
  }
}

/** What a replica reports: each answered request, each entry it skipped, each entry it took over from another. */
export interface BusServerObserver {
  answered(pattern: string, seconds: number, outcome: 'ok' | 'error'): void;
  expired(pattern: string): void;
  reclaimed(count: number): void;
}

const READ_BLOCK_MS = 1_000;
/** How much longer than it blocks a read may take to be answered before a stopping server gives up on it. */
const READ_ANSWER_MS = 1_000;
const CLOCK_CHECK_EVERY_MS = 30_000;
/** A handler must finish this long before the caller gives up, so its answer still arrives in time. */
const ANSWER_MARGIN_MS = 250;
const RECLAIM_EVERY_MS = 1_000;
const CONSUMER_SWEEP_EVERY_MS = 60_000;
const DEAD_CONSUMER_IDLE_MS = 10 * 60_000;
// A dead client's reply list expires; a live one empties it at once.
const REPLY_TTL_MS = 60_000;

/**
 * Nest transport strategy on a Redis Streams consumer group: each request is handled by exactly
 * one live replica of the service. See docs/messaging.md.
 */
export class RedisStreamsServer extends Server implements CustomTransportStrategy {
  private readonly service: string;
  private readonly prefix: string;
  private readonly streamKey: string;
  private readonly contract: BusContract;
  private readonly consumer: string;
  private readonly concurrency: number;
  private readonly reclaimIdleMs: number;
  private readonly log: Logger;
  private commands?: Redis;
  private reader?: Redis;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Answers waiting for the end of this turn of the event loop, to leave in one transaction. */
  private answering?: AnswerBatch;
  private wakeReader?: () => void;
  /** Stops reading, reclaiming and sweeping: the start of a drain. */
  private stopping = new AbortController();
  /** Stops keeping in-flight entries claimed: the end of a drain, once they are answered. */
  private drained = new AbortController();
  /** Stops waiting for a read that should have ended by now: Redis cannot answer it. */
  private readAbandoned = new AbortController();
  private loops: Promise<void>[] = [];
  private claimRefresher?: Promise<void>;
  private reclaimCursor = '0-0';
  /** Redis's clock minus this host's: entry ids carry Redis's time of adding. */
  private redisClockAheadMs = 0;

  constructor(private readonly options: RedisStreamsServerOptions) {
    super();
    this.service = options.service;
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.streamKey = requestStreamKey(this.prefix, options.service);
    this.contract = options.contract ?? sparkContract;
    this.consumer = options.consumerName ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.concurrency = options.concurrency ?? 64;
    this.reclaimIdleMs = options.reclaimIdleMs ?? 3_000;
    this.log = options.logger.child({ transport: 'redis-streams', service: options.service });
  }

  /** Two handlers for one request pattern would make routing depend on registration order. */
  override addHandler(pattern: MsPattern, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    if (!isEventHandler && this.messageHandlers.has(this.normalizePattern(pattern))) {
      throw new Error(`Two handlers for message pattern ${this.normalizePattern(pattern)}`);
    }
    super.addHandler(pattern, callback, isEventHandler, extras);
  }

  /**
   * The bus's patterns are plain strings, registered as they are. Nest's own lookup first tries each incoming
   * pattern as JSON, which throws and catches for every request.
   */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? null;
  }

  listen(callback: (error?: unknown) => void): void {
    // Thrown synchronously so NestMicroservice.listen() rejects and the process refuses to start.
    this.assertHandlersMatchContract();
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /**
   * Drains: reads nothing more, lets running handlers finish and answer while still refreshing their claims (a
   * draining replica's entries are not handed to another replica and run twice), then disconnects.
   */
  async close(): Promise<void> {
    this.stopping.abort();
    this.wakeReader?.();
    // The read in flight is waited for, so what it takes is handled, but not past the time it blocks for: a read on a
    // connection waiting for Redis to come back would hold the drain until then (see `unlessAborted`).
    const readOver = setTimeout(() => this.readAbandoned.abort(), READ_BLOCK_MS + READ_ANSWER_MS);
    await Promise.all(this.loops);
    clearTimeout(readOver);
    const answered = Promise.allSettled(this.inFlight.values());
    // The deadline's timer is cancelled once all are answered: left pending, it would hold this server until it fired.
    const deadline = new AbortController();
    const timedOut = sleep(this.options.drainTimeoutMs ?? 20_000, undefined, { ref: false, signal: deadline.signal }).catch(() => undefined);
    await Promise.race([answered, timedOut]);
    deadline.abort();
    this.drained.abort();
    await this.claimRefresher;
    this.reader?.disconnect();
    if (this.commands?.status === 'ready') await this.commands.quit().catch(() => undefined);
    else this.commands?.disconnect();
    this.loops = [];
  }

  unwrap<T>(): T {
    if (!this.commands || !this.reader) throw new Error('RedisStreamsServer is not listening yet');
    return [this.commands, this.reader] as T;
  }

  on(): never {
    throw new Error('RedisStreamsServer reports through its logger; it has no events to subscribe to');
  }

  private assertHandlersMatchContract(): void {
    const missing = Object.keys(this.contract.requests).filter((pattern) => serviceOf(pattern) === this.service && !this.messageHandlers.get(pattern));
    if (missing.length > 0) {
      throw new Error(`${this.service}-service has no handler for: ${missing.join(', ')}`);
    }
    const handlers = [...this.messageHandlers];
    const foreign = handlers.filter(([pattern, handler]) => !handler.isEventHandler && serviceOf(pattern) !== this.service).map(([pattern]) => pattern);
    if (foreign.length > 0) {
      throw new Error(`${this.service}-service handles patterns addressed elsewhere: ${foreign.join(', ')}`);
    }
    // A handler the contract does not name could only be reached by an entry nothing validates.
    const outside = handlers
      .filter(([pattern, handler]) => !(handler.isEventHandler ? isEventPattern : isRequestPattern)(this.contract, pattern))
      .map(([pattern]) => pattern);
    if (outside.length > 0) {
      throw new Error(`${this.service}-service handles patterns outside its contract: ${outside.join(', ')}`);
    }
  }

  private async start(): Promise<void> {
    this.stopping = new AbortController();
    this.readAbandoned = new AbortController();
    this.drained = new AbortController();
    this.commands = this.connection('commands');
    this.reader = this.connection('reader');
    await Promise.all([this.commands.connect(), this.reader.connect()]);
    await this.ensureGroup();
    await this.readRedisClock();
    this.loops = [
      this.every(CLOCK_CHECK_EVERY_MS, () => this.readRedisClock()),
      this.readLoop(),
      this.every(RECLAIM_EVERY_MS, () => this.reclaim()),
      this.every(CONSUMER_SWEEP_EVERY_MS, () => this.removeDeadConsumers()),
    ];
    this.claimRefresher = this.every(Math.max(100, Math.floor(this.reclaimIdleMs / 3)), () => this.refreshInFlight(), this.drained.signal);
    this.log.info({ stream: this.streamKey, consumer: this.consumer }, 'consuming requests');
  }

  private connection(role: string): Redis {
    // The reader blocks; it must wait out a Redis restart instead of failing its command.
    const redis = new Redis(this.options.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: role === 'reader' ? null : 20,
      // Replies of concurrent handlers finish in the same tick: one write instead of one each.
      enableAutoPipelining: role !== 'reader',
    });
    redis.on('error', (error: Error) => this.log.warn({ err: error, role }, 'redis connection error'));
    return redis;
  }

  private async ensureGroup(): Promise<void> {
    try {
      // From 0: requests sent while no replica ran are still served (or skipped when expired).
      await this.commands?.xgroup('CREATE', this.streamKey, this.service, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async readLoop(): Promise<void> {
    while (!this.stopped && this.reader) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.wakeReader = resolve));
        continue;
      }
      try {
        const reading = this.reader.xreadgroup('GROUP', this.service, this.consumer, 'COUNT', free, 'BLOCK', READ_BLOCK_MS, 'STREAMS', this.streamKey, '>');
        const reply = await unlessAborted(reading, this.readAbandoned.signal);
        for (const [entryId, fields] of entriesOfReadGroup(reply)) this.dispatch(entryId, fields, false);
      } catch (error) {
        if (this.stopped) return;
        this.log.warn({ err: error }, 'reading requests failed; retrying');
        // The stream may have been deleted (FLUSHALL, cleanup): recreate the group.
        if (String(error).includes('NOGROUP')) await this.ensureGroup().catch(() => undefined);
        await sleep(500);
      }
    }
  }

  private async every(intervalMs: number, task: () => Promise<void>, until = this.stopping.signal): Promise<void> {
    while (!until.aborted) {
      try {
        await sleep(intervalMs, undefined, { signal: until });
        await unlessAborted(task(), until);
      } catch (error) {
        if (until.aborted) return;
        this.log.warn({ err: error }, 'stream maintenance failed; retrying');
      }
    }
  }

  private dispatch(entryId: string, fields: string[], redelivered: boolean): void {
    if (this.inFlight.has(entryId)) return;
    const work = this.handleEntry(entryId, fields, redelivered)
      .catch((error: unknown) => this.log.error({ err: error, entryId }, 'could not answer or acknowledge a request'))
      .finally(() => {
        this.inFlight.delete(entryId);
        this.wakeReader?.();
      });
    this.inFlight.set(entryId, work);
  }

  private async handleEntry(entryId: string, fields: string[], redelivered: boolean): Promise<void> {
    const entry = decodeEntry(fields);
    const refusal = entry ? this.refusalOf(entry) : 'not an entry of this transport';
    if (!entry || refusal) {
      // Anything that can write to the stream could have written it: acknowledge it and run nothing.
      this.log.warn({ entryId, pattern: entry?.pattern, reason: refusal }, 'refused a stream entry; nothing ran');
      return this.acknowledge(entryId);
    }
    return runWithCorrelationId(entry.correlationId || newCorrelationId(), async () => {
      const deadline = this.localDeadlineOf(entryId, entry);
      if (deadline !== undefined && deadline <= Date.now()) {
        // The caller has given up: running a write nobody awaits would surprise them.
        this.log.warn({ pattern: entry.pattern, entryId }, 'skipping a request whose deadline has passed');
        this.options.observer?.expired(entry.pattern);
        return this.acknowledge(entryId);
      }
      if (entry.id === undefined || entry.replyTo === undefined) {
        await this.runEvent(entry, entryId);
        return this.acknowledge(entryId);
      }
      const started = performance.now();
      // A request keyed by a person's Idempotency-Key is their repeat whenever it ran before: its outcome is looked for first.
      const mayHaveRun = redelivered || isKeyedRequestId(entry.id);
      const reply = await this.answer({ requestId: entry.id, pattern: entry.pattern, redelivered: mayHaveRun, deadline }, entry, entryId);
      this.options.observer?.answered(entry.pattern, (performance.now() - started) / 1000, reply.error ? 'error' : 'ok');
      await this.replyAndAcknowledge(entryId, entry.replyTo, reply);
    });
  }

  /**
   * When, on this host's clock, the handler must be done: the entry's budget counted from the time Redis added it
   * (its id), less a margin for the answer's way back. Undefined for an entry without a budget.
   */
  private localDeadlineOf(entryId: string, entry: RequestEntry): number | undefined {
    if (entry.budgetMs === undefined) return undefined;
    const addedAtRedisMs = Number(entryId.slice(0, entryId.indexOf('-')));
    return addedAtRedisMs - this.redisClockAheadMs + entry.budgetMs - Math.min(ANSWER_MARGIN_MS, entry.budgetMs / 4);
  }

  private async readRedisClock(): Promise<void> {
    if (!this.commands) return;
    const sentAt = Date.now();
    const [seconds, micros] = await this.commands.time();
    const receivedAt = Date.now();
    this.redisClockAheadMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (sentAt + receivedAt) / 2;
  }

  /** Why an entry must not run at all, or undefined. A request is an event only if it carries neither id nor reply list. */
  private refusalOf(entry: RequestEntry): string | undefined {
    if (entry.id !== undefined || entry.replyTo !== undefined) {
      if (entry.id === undefined || entry.replyTo === undefined) return 'a request needs both a request id and a reply list';
      if (!isReplyListKey(this.prefix, entry.replyTo)) return 'its reply key is not a reply list of this bus';
      return this.options.signingKeys && senderRefusal(this.options.signingKeys, this.service, entry);
    }
    if (isRequestPattern(this.contract, entry.pattern)) return 'a request pattern without a request id';
    if (!isEventPattern(this.contract, entry.pattern)) return 'an event pattern outside the contract';
    return undefined;
  }

  private async answer(request: LedgerRequest, entry: RequestEntry, entryId: string): Promise<Reply> {
    const { requestId } = request;
    try {
      const handler = this.getHandlerByPattern(entry.pattern);
      if (!handler || handler.isEventHandler) throw new DomainError('NOT_FOUND', `Unknown message pattern ${entry.pattern}`);
      const data = parseRequest(this.contract, entry.pattern, entry.data);
      if (this.options.signingKeys && speaksForAnother(entry.caller, entry.pattern, data)) {
        throw new DomainError('FORBIDDEN', `${entry.caller ?? 'A sender'} may report only its own work in ${entry.pattern}.`);
      }
      const run = () => this.outcomeOf(handler, data, requestId, entry.pattern, entryId);
      const { ledger } = this.options;
      const outcome = ledger && !isReplaySafe(this.contract, entry.pattern) ? await ledger.once(request, run) : await run();
      return { id: requestId, ...outcome };
    } catch (error) {
      if (error instanceof NotDone) return { id: requestId, error: error.wireError };
      const wireError = toWireError(error);
      if (wireError) return { id: requestId, error: wireError };
      this.log.error({ err: error, pattern: entry.pattern }, 'message handler failed');
      return { id: requestId, error: { code: 'INTERNAL', message: 'Internal error' } };
    }
  }

  /**
   * The handler's answer, or the expected failure it threw. "Unavailable" is not an outcome but a throw, so a
   * command's partial effect is undone and a later try runs it afresh.
   */
  private async outcomeOf(handler: MessageHandler, data: unknown, requestId: string, pattern: string, entryId: string): Promise<RequestOutcome> {
    try {
      const result = await runInRequestScope(requestId, () => this.lastValueOf(handler, data, pattern, entryId));
      return { response: parseResponse(this.contract, pattern, result) };
    } catch (error) {
      const wireError = toWireError(error);
      if (!wireError) throw error;
      if (wireError.code === 'SERVICE_UNAVAILABLE') throw new NotDone(wireError);
      return { error: wireError };
    }
  }

  private async runEvent(entry: RequestEntry, entryId: string): Promise<void> {
    const handler = this.getHandlerByPattern(entry.pattern);
    if (!handler?.isEventHandler) {
      this.log.error({ pattern: entry.pattern }, 'no event handler; event dropped');
      return;
    }
    let data: unknown;
    try {
      data = parseEvent(this.contract, entry.pattern, entry.data);
    } catch (error) {
      this.log.warn(
        { entryId, pattern: entry.pattern, fieldErrors: toWireError(error)?.details?.fieldErrors },
        'refused an event its contract does not match; nothing ran',
      );
      return;
    }
    try {
      await this.lastValueOf(handler, data, entry.pattern, entryId);
    } catch (error) {
      this.log.error({ err: error, pattern: entry.pattern }, 'event handler failed');
    }
  }

  private async lastValueOf(handler: MessageHandler, data: unknown, pattern: string, entryId: string): Promise<unknown> {
    const context = new RedisStreamsContext([pattern, entryId]);
    const result$ = this.transformToObservable(await handler(data, context));
    return lastValueFrom(result$, { defaultValue: undefined });
  }

  /**
   * Answers and acknowledges with the other requests answered in this turn of the event loop (a group committed
   * together answers at once): one transaction, one reply push per caller's list, one XACK and one XDEL for all.
   */
  private replyAndAcknowledge(entryId: string, replyTo: string, reply: Reply): Promise<void> {
    if (!this.answering) {
      const batch: AnswerBatch = { answers: [], sent: new Promise((resolve) => setImmediate(resolve)).then(() => this.sendAnswers(batch)) };
      this.answering = batch;
    }
    this.answering.answers.push({ entryId, replyTo, reply });
    return this.answering.sent;
  }

  private async sendAnswers(batch: AnswerBatch): Promise<void> {
    this.answering = undefined;
    if (!this.commands) return;
    const repliesByList = new Map<string, string[]>();
    for (const { replyTo, reply } of batch.answers) {
      const replies = repliesByList.get(replyTo);
      if (replies) replies.push(encodeReply(reply));
      else repliesByList.set(replyTo, [encodeReply(reply)]);
    }
    const transaction = this.commands.multi();
    for (const [list, replies] of repliesByList) transaction.rpush(list, ...replies).pexpire(list, REPLY_TTL_MS);
    const entryIds = batch.answers.map(({ entryId }) => entryId);
    await transaction
      .xack(this.streamKey, this.service, ...entryIds)
      .xdel(this.streamKey, ...entryIds)
      .exec();
  }

  private async acknowledge(entryId: string): Promise<void> {
    await this.commands?.multi().xack(this.streamKey, this.service, entryId).xdel(this.streamKey, entryId).exec();
  }

  /** Takes over entries left pending by a replica that died mid-request. */
  private async reclaim(): Promise<void> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0 || !this.commands) return;
    const reply = await this.commands.xautoclaim(this.streamKey, this.service, this.consumer, this.reclaimIdleMs, this.reclaimCursor, 'COUNT', free);
    const { nextCursor, entries } = parseAutoClaim(reply);
    this.reclaimCursor = nextCursor;
    // Claiming back an entry this replica is still running is harmless: it is skipped.
    const orphans = entries.filter(([entryId]) => !this.inFlight.has(entryId));
    if (orphans.length > 0) {
      this.log.info({ count: orphans.length }, 'reclaimed requests of a silent replica');
      this.options.observer?.reclaimed(orphans.length);
    }
    for (const [entryId, fields] of orphans) this.dispatch(entryId, fields, true);
  }

  /** Resets the idle time of entries still being handled, so a slow but live handler is not stolen. */
  private async refreshInFlight(): Promise<void> {
    const entryIds = [...this.inFlight.keys()];
    if (entryIds.length === 0 || !this.commands) return;
    await this.commands.xclaim(this.streamKey, this.service, this.consumer, 0, ...entryIds, 'JUSTID');
  }

  private async removeDeadConsumers(): Promise<void> {
    if (!this.commands) return;
    const consumers = parseConsumers(await this.commands.xinfo('CONSUMERS', this.streamKey, this.service));
    for (const name of deadConsumers(consumers, DEAD_CONSUMER_IDLE_MS, this.consumer)) {
      await this.commands.xgroup('DELCONSUMER', this.streamKey, this.service, name);
      this.log.info({ consumer: name }, 'removed a long-dead consumer');
    }
  }
}
