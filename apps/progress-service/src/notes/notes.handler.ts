import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { PayloadOf, PrivateNotePage } from '@spark/contracts';
import { decodeCursor, pageOf, positionOfRow } from '@spark/persistence';
import { NotesRepository, toCoachNote, toPrivateNote } from './notes.repository';

/** The coach's words to a client (pinned ones show on the home) and notes only coaches read. */
@Controller()
export class NotesHandler {
  constructor(private readonly notes: NotesRepository) {}

  @MessagePattern('progress.add-coach-note')
  async addCoachNote(@Payload() request: PayloadOf<'progress.add-coach-note'>) {
    return toCoachNote(await this.notes.addCoachNote(request));
  }

  @MessagePattern('progress.add-private-note')
  async addPrivateNote(@Payload() request: PayloadOf<'progress.add-private-note'>) {
    return toPrivateNote(await this.notes.addPrivateNote(request));
  }

  @MessagePattern('progress.list-private-notes')
  async listPrivateNotes(@Payload() request: PayloadOf<'progress.list-private-notes'>): Promise<PrivateNotePage> {
    const rows = await this.notes.listPrivateNotes(request.userId, request.limit, decodeCursor(request.cursor));
    const page = pageOf(rows, request.limit, positionOfRow);
    return { items: page.items.map(toPrivateNote), nextCursor: page.nextCursor };
  }
}
