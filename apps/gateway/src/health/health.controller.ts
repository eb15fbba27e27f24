import { Controller, Get, HttpException } from '@nestjs/common';
import { healthStatusSchema } from '@spark/contracts';
import { Redis } from 'ioredis';
import { Public } from '../auth/auth.decorators';
import { Responds } from '../docs/responds.decorator';

@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly redis: Redis) {}

  @Responds(healthStatusSchema)
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /** Ready when the bus (Redis) answers: without it no request can reach a service. */
  @Responds(healthStatusSchema)
  @Get('ready')
  async ready() {
    const pong = await this.redis.ping().catch(() => undefined);
    if (pong !== 'PONG') throw new HttpException({ status: 'unavailable', redis: 'down' }, 503);
    return { status: 'ok' };
  }
}
