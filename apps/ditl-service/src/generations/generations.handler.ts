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

  @MessagePattern('ditl.current')
  current(@Payload() request: PayloadOf<'ditl.current'>) {
    return this.generations.current(request);
  }

  @MessagePattern('ditl.export-presentation')
  exportPresentation(@Payload() request: PayloadOf<'ditl.export-presentation'>) {
    return this.generations.exportPresentation(request);
  }

  @MessagePattern('ditl.coach-view')
  coachView(@Payload() request: PayloadOf<'ditl.coach-view'>) {
    return this.generations.coachView(request);
  }

  @MessagePattern('ditl.coach-regenerate')
  coachRegenerate(@Payload() request: PayloadOf<'ditl.coach-regenerate'>) {
    return this.generations.coachRegenerate(request);
  }

  @MessagePattern('ditl.coach-edit-moment')
  editMoment(@Payload() request: PayloadOf<'ditl.coach-edit-moment'>) {
    return this.generations.editMoment(request);
  }

  @MessagePattern('ditl.coach-reset-moment')
  resetMoment(@Payload() request: PayloadOf<'ditl.coach-reset-moment'>) {
    return this.generations.resetMoment(request);
  }
}
