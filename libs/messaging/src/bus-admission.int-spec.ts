import 'reflect-metadata';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DomainError } from '@spark/errors';
import Redis from 'ioredis';
import { testContract } from './__fixtures__/test-contract';
import { deleteKeysUnder, quietLogger, redisUrl, uniquePrefix } from './__fixtures__/test-support';
import type { BusAdmission, KeyedRedisCommand } from './bus-admission';
import { RedisStreamsClient } from './redis-streams.client';
import { RedisStreamsServer } from './redis-streams.server';
import { requestStreamKey } from './stream-keys';

const prefix = uniquePrefix();
const notesRun: string[] = [];

@Controller()
class GateController {
  @MessagePattern('gate.note')
  note(@Payload() data: { note: string }) {
    notesRun.push(data.note);
    return { noted: data.note };
  }
}
@Module({ controllers: [GateController] })
class GateModule {}

/** Admits while `open`, running the command on the bus's Redis as a rate limit's script would; records what it was asked. */
class Gate implements BusAdmission {
  readonly asked: KeyedRedisCommand[] = [];
  constructor(
    private readonly redis: Redis,
    private readonly open: boolean,
  ) {}

  async runIfAdmitted(command: KeyedRedisCommand): Promise<void> {
    this.asked.push(command);
    if (!this.open) throw new DomainError('RATE_LIMITED', 'Too many requests. Please try again in 1 minute.', { retryAfterSeconds: 60 });
    await this.redis.call(command.name, command.key, ...command.args);
  }
}

let redis: Redis;
let client: RedisStreamsClient;
let service: INestMicroservice;

beforeAll(async () => {
  redis = new Redis(redisUrl);
  client = new RedisStreamsClient({ app: 'test', redisUrl, prefix, logger: quietLogger });
  await client.connect();
  service = await NestFactory.createMicroservice(GateModule, {
    strategy: new RedisStreamsServer({ redisUrl, prefix, service: 'gate', logger: quietLogger, contract: testContract }),
    logger: false,
  });
  await service.listen();
});

afterAll(async () => {
  await client.close();
  await service.close();
  redis.disconnect();
  await deleteKeysUnder(prefix);
});

describe('a request with an admission', () => {
  it('goes on the bus through the admission’s own call, to its service’s stream, and is answered', async () => {
    const gate = new Gate(redis, true);

    await expect(client.request('gate.note', { note: 'let in' }, undefined, gate)).resolves.toEqual({ noted: 'let in' });
    expect(gate.asked).toEqual([{ name: 'XADD', key: requestStreamKey(prefix, 'gate'), args: expect.arrayContaining(['*']) }]);
  });

  it('is refused with the admission’s own error, and its service never runs it', async () => {
    const refused = await client.request('gate.note', { note: 'kept out' }, undefined, new Gate(redis, false)).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 60 } });
    // The stream is first in, first out: once a later request is answered, an added refused one would have run.
    await client.request('gate.note', { note: 'after' }, undefined, new Gate(redis, true));
    expect(notesRun).not.toContain('kept out');
    expect(notesRun).toContain('after');
  });

  it('answers SERVICE_UNAVAILABLE when the admission cannot reach Redis', async () => {
    const unreachable: BusAdmission = { runIfAdmitted: () => Promise.reject(new Error('Connection is closed.')) };

    await expect(client.request('gate.note', { note: 'lost' }, undefined, unreachable)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
