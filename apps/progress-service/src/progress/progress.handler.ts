import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { HomeResponse, PayloadOf } from '@spark/contracts';
import { toCoachNote } from '../notes/notes.repository';
import { toProgress } from './progress-row';
import { ProgressRepository } from './progress.repository';

@Controller()
export class ProgressHandler {
  constructor(private readonly progress: ProgressRepository) {}

  /** The client home. A client without a progress row yet gets `progress: null`, not an error. */
  @MessagePattern('progress.get-home')
  async getHome(@Payload() request: PayloadOf<'progress.get-home'>): Promise<HomeResponse> {
    const [row, note] = await Promise.all([this.progress.findProgress(request.userId), this.progress.findLatestPinnedNote(request.userId)]);
    return { progress: row ? toProgress(row) : null, pinnedNote: note ? toCoachNote(note) : null };
  }
}
