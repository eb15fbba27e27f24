import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { SparksService } from './sparks.service';

@Controller()
export class SparksHandler {
  constructor(private readonly sparks: SparksService) {}

  @MessagePattern('progress.grant-spark-upload')
  grantUpload(@Payload() request: PayloadOf<'progress.grant-spark-upload'>) {
    return this.sparks.grantUpload(request);
  }

  @MessagePattern('progress.record-spark')
  record(@Payload() request: PayloadOf<'progress.record-spark'>) {
    return this.sparks.record(request);
  }

  @MessagePattern('progress.get-spark')
  get(@Payload() request: PayloadOf<'progress.get-spark'>) {
    return this.sparks.get(request);
  }

  @MessagePattern('progress.list-sparks')
  list(@Payload() request: PayloadOf<'progress.list-sparks'>) {
    return this.sparks.list(request);
  }
}
