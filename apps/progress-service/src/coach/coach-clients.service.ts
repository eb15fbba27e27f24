import { type ClientDetail, type ClientPage, type ClientSort, type ClientSummary, type PayloadOf, type ResponseOf, weekdayOf } from '@spark/contracts';
import { decodeCursor, type KeyKind, pageOf } from '@spark/persistence';
import { toProgress } from '../progress/progress-row';
import { attentionOf } from './attention';
import type { ClientRow, CoachClientsRepository } from './coach-clients.repository';
import { foldCaptures } from './trends';
import { clientNotFound } from '../progress/client-not-found';

export function toClientSummary(row: ClientRow): ClientSummary {
  const hasSparked = row.last_spark_date !== null;
  return {
    ...toProgress(row),
    email: row.email,
    daysSinceLastSpark: hasSparked ? row.idle_days : null,
    restingToday: row.resting_today ? (row.rest_weekday === weekdayOf(row.today) ? 'rest' : 'pause') : null,
    attention: attentionOf({ status: row.status, evolutionNumber: row.evolution_number, idleDays: row.idle_days - row.covered_idle_days, hasSparked }),
  };
}

/** What each sort's page cursor carries: the evolution's start date, or the attention score. */
const sortKeyKind: Record<ClientSort, KeyKind> = { newest: 'date', attention: 'integer' };

export class CoachClientsService {
  constructor(private readonly clients: CoachClientsRepository) {}

  async list(request: PayloadOf<'progress.coach-list-clients'>): Promise<ClientPage> {
    const [rows, total] = await Promise.all([
      this.clients.list(request.sort, request.limit, decodeCursor(request.cursor, sortKeyKind[request.sort])),
      this.clients.count(),
    ]);
    const page = pageOf(rows, request.limit, (row) => ({ key: row.sort_key, id: row.user_id }));
    return { items: page.items.map(toClientSummary), nextCursor: page.nextCursor, total };
  }

  async count(): Promise<ResponseOf<'progress.coach-count-clients'>> {
    return { total: await this.clients.count() };
  }

  async detail({ userId }: PayloadOf<'progress.coach-client'>): Promise<ClientDetail> {
    const row = await this.clients.find(userId);
    if (!row) throw clientNotFound();
    // The chart runs from the cycle's first day to today, or to its end once it is over.
    const lastDay = row.today < row.evolution_end_date ? row.today : row.evolution_end_date;
    const [buckets, nudges] = await Promise.all([this.clients.captureBuckets(userId, row.time_zone, row.evolution_start_date), this.clients.nudges(userId)]);
    const client = toClientSummary(row);
    return {
      client,
      trends: { ...foldCaptures(buckets, row.evolution_start_date, lastDay), daysSinceLastSpark: client.daysSinceLastSpark, attention: client.attention },
      nudges: nudges.map((note) => ({ id: note.id, message: note.message, isPinned: note.is_pinned, createdAt: note.created_at.toISOString() })),
    };
  }

  async update({ userId, changes }: PayloadOf<'progress.coach-update-client'>): Promise<ClientSummary> {
    const row = await this.clients.update(userId, changes);
    if (!row) throw clientNotFound();
    return toClientSummary(row);
  }

  async presetEvolution(request: PayloadOf<'progress.preset-evolution'>): Promise<ResponseOf<'progress.preset-evolution'>> {
    await this.clients.presetEvolution(request.email, request.customEvolutionDays);
    return request;
  }
}
