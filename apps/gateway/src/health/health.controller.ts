import { Controller, Get, HttpException } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Public } from '../auth/auth.decorators';

@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly redis: Redis) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /** Ready when the bus (Redis) answers: without it no request can reach a service. */
  @Get('ready')
  async ready() {
    const pong = await this.redis.ping().catch(() => undefined);
    if (pong !== 'PONG') throw new HttpException({ status: 'unavailable', redis: 'down' }, 503);
    return { status: 'ok' };
  }
}
