// A replica of a tiny "echo" service, run as a child process by the integration tests:
//   node -r @swc-node/register echo-service.ts <redisUrl> <prefix> <replicaName> <concurrency>
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { createLogger } from '@spark/logging';
import { RedisStreamsServer } from '../redis-streams.server';
import { testContract } from './test-contract';

const [redisUrl, prefix, replicaName, concurrency] = process.argv.slice(2);

@Controller()
class EchoController {
  @MessagePattern('echo.slow')
  async slow(@Payload() data: { value: number }) {
    await sleep(20 + Math.random() * 30);
    return { value: data.value, replica: replicaName };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

async function main(): Promise<void> {
  const logger = createLogger(`echo-${replicaName}`, 'warn');
  const app = await NestFactory.createMicroservice(EchoModule, {
    strategy: new RedisStreamsServer({
      redisUrl,
      prefix,
      service: 'echo',
      consumerName: replicaName,
      concurrency: Number(concurrency),
      reclaimIdleMs: 1_000,
      contract: testContract,
      logger,
    }),
    logger: false,
  });
  await app.listen();
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
