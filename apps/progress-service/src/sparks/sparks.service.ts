import {
  addDays,
  cycleLengthDays,
  localDate,
  milestoneMessage,
  type PayloadOf,
  type RecordSparkResponse,
  type Spark,
  type SparkPage,
  streakAfterSpark,
} from '@spark/contracts';
import { DomainError } from '@spark/messaging';
import type { TimeZoneResolver } from '../progress/database-time-zones';
import { toProgress } from '../progress/progress-row';
import { type SparksRepository, toSpark } from './sparks.repository';

export class SparksService {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly timeZones: TimeZoneResolver,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Idempotent on (user, clientSparkId): a retried upload returns the first answer's spark. */
  async record(request: PayloadOf<'progress.record-spark'>): Promise<RecordSparkResponse> {
    const timeZone = await this.timeZones.storable(request.timeZone);
    const today = localDate(this.now(), timeZone);
    const firstCycle = { start: today, end: addDays(today, cycleLengthDays(null)) };
    const result = await this.sparks.record({ ...request, timeZone }, firstCycle, (progress) =>
      streakAfterSpark({ streakCount: progress.streak_count, lastSparkDate: progress.last_spark_date }, today),
    );
    const progress = toProgress(result.progress);
    return { spark: toSpark(result.spark), created: result.created, progress, milestone: milestoneMessage(progress.sparkCount) };
  }

  async get(request: PayloadOf<'progress.get-spark'>): Promise<Spark> {
    const row = await this.sparks.find(request.sparkId, request.ownerId);
    if (!row) throw new DomainError('NOT_FOUND', 'This spark does not exist.');
    return toSpark(row);
  }

  async list(request: PayloadOf<'progress.list-sparks'>): Promise<SparkPage> {
    const page = await this.sparks.list(request.userId, request.limit, request.cursor);
    return { items: page.rows.map(toSpark), nextCursor: page.nextCursor };
  }
}
