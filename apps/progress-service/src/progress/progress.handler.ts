import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { HomeResponse, PayloadOf } from '@spark/contracts';
import { toCoachNote } from '../notes/notes.repository';
import { RestDaysService } from '../rest-days/rest-days.service';
import { toProgress } from './progress-row';
import { ProgressRepository } from './progress.repository';

@Controller()
export class ProgressHandler {
  constructor(
    private readonly progress: ProgressRepository,
    private readonly restDays: RestDaysService,
  ) {}

  /** The client home. A client without a progress row yet gets `progress: null`, not an error. */
  @MessagePattern('progress.get-home')
  async getHome(@Payload() request: PayloadOf<'progress.get-home'>): Promise<HomeResponse> {
    const [row, note, restDays] = await Promise.all([
      this.progress.findProgress(request.userId),
      this.progress.findLatestPinnedNote(request.userId),
      this.restDays.of(request.userId),
    ]);
    return { progress: row ? toProgress(row) : null, pinnedNote: note ? toCoachNote(note) : null, restDays };
  }
}
