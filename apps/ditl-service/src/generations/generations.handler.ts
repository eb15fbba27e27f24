import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf } from '@spark/contracts';
import { GenerationsService } from './generations.service';

@Controller()
export class GenerationsHandler {
  constructor(private readonly generations: GenerationsService) {}

  @MessagePattern('ditl.generate')
  generate(@Payload() request: PayloadOf<'ditl.generate'>) {
    return this.generations.generate(request);
  }

  @MessagePattern('ditl.check-status')
  checkStatus(@Payload() request: PayloadOf<'ditl.check-status'>) {
    return this.generations.checkStatus(request);
  }

  @MessagePattern('ditl.get-presentation')
  getPresentation(@Payload() request: PayloadOf<'ditl.get-presentation'>) {
    return this.generations.getPresentation(request);
  }
}
