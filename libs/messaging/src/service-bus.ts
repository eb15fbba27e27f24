import { Injectable } from '@nestjs/common';
import { type EventName, type EventOf, type PatternName, type RequestOf, type ResponseOf, sharedAnswerPatterns } from '@spark/contracts';
import { lastValueFrom } from 'rxjs';
import type { BusAdmission } from './bus-admission';
import { RedisStreamsClient } from './redis-streams.client';
import { SharedRequests } from './shared-requests';

/** The typed face of the transport: contract patterns in, contract responses out. */
@Injectable()
export class ServiceBus {
  private readonly shared = new SharedRequests();

  /** `sharedAnswers`: the patterns whose concurrent identical requests share one (the contract's, by default). */
  constructor(
    private readonly client: RedisStreamsClient,
    private readonly sharedAnswers: Readonly<Record<string, string>> = sharedAnswerPatterns,
  ) {}

  /**
   * Rejects with a DomainError, or ServiceUnavailableError when no replica answers in time. A pattern whose answer
   * is the same for every caller is asked once for everyone asking the same meanwhile (`SharedRequests`). A request
   * with an `admission` goes on the bus only if it admits it (`BusAdmission`), and is never shared. A `requestId`
   * (`keyedRequestId`) makes a repeat of the command the same request, which its service answers from its ledger.
   */
  async request<P extends PatternName>(
    pattern: P,
    data: RequestOf<P>,
    options?: { timeoutMs?: number; admission?: BusAdmission; requestId?: string },
  ): Promise<ResponseOf<P>> {
    // The serving replica has already checked the answer against the contract.
    const send = async () => (await this.client.request(pattern, data, options?.timeoutMs, options?.admission, options?.requestId)) as ResponseOf<P>;
    if (!Object.hasOwn(this.sharedAnswers, pattern) || options?.admission || options?.requestId) return send();
    // A caller who joins a request also takes its deadline, so only callers with the same deadline share one.
    return this.shared.run(`${pattern} ${options?.timeoutMs ?? 'default'} ${JSON.stringify(data)}`, send);
  }

  /** Resolves once the event is on the target service's stream; no answer is awaited. */
  async emit<E extends EventName>(pattern: E, data: EventOf<E>): Promise<void> {
    await lastValueFrom(this.client.emit(pattern, data), { defaultValue: undefined });
  }
}
