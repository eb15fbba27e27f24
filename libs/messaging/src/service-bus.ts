import { Injectable } from '@nestjs/common';
import type { EventName, EventOf, PatternName, RequestOf, ResponseOf } from '@spark/contracts';
import { lastValueFrom } from 'rxjs';
import { RedisStreamsClient } from './redis-streams.client';

/** The typed face of the transport: contract patterns in, contract responses out. */
@Injectable()
export class ServiceBus {
  constructor(private readonly client: RedisStreamsClient) {}

  /** Rejects with a DomainError, or ServiceUnavailableError when no replica answers in time. */
  async request<P extends PatternName>(pattern: P, data: RequestOf<P>, options?: { timeoutMs?: number }): Promise<ResponseOf<P>> {
    // The serving replica has already checked the answer against the contract.
    return (await this.client.request(pattern, data, options?.timeoutMs)) as ResponseOf<P>;
  }

  /** Resolves once the event is on the target service's stream; no answer is awaited. */
  async emit<E extends EventName>(pattern: E, data: EventOf<E>): Promise<void> {
    await lastValueFrom(this.client.emit(pattern, data), { defaultValue: undefined });
  }
}
