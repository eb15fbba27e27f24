import {
  addDays,
  cycleLengthDays,
  localDate,
  milestoneMessage,
  type PayloadOf,
  type RecordSparkResponse,
  type Spark,
  skippedBy,
  type SparkPage,
  sparkTakenAt,
  type SparkUploadGrant,
  streakAfterSpark,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { SparkFile, SparkMedia } from '@spark/media';
import type { TimeZoneResolver } from '../progress/database-time-zones';
import { restCalendarOf, toProgress } from '../progress/progress-row';
import { type SparksRepository, StorageFullError, toSpark } from './sparks.repository';

const GIGABYTE = 1024 ** 3;
const MEGABYTE = 1024 ** 2;

/** "2 GB", "1.4 GB", "350 MB": storage amounts as people read them. */
export function readableSize(bytes: number): string {
  const [unit, name] = bytes >= GIGABYTE ? [GIGABYTE, 'GB'] : bytes >= MEGABYTE ? [MEGABYTE, 'MB'] : [1024, 'KB'];
  return `${Number((bytes / unit).toFixed(1))} ${name}`;
}

export class SparksService {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly media: SparkMedia,
    private readonly timeZones: TimeZoneResolver,
    private readonly storageQuotaBytes: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * A signed upload URL, unless the file would not fit in the client's storage: refused before it is sent. A retry of
   * a capture already recorded (its recording answers with the first spark) is checked without that spark's own file,
   * so it is granted whenever its first attempt would be now, even in a full storage, and never for more room.
   */
  async grantUpload({ userId, ...file }: PayloadOf<'progress.grant-spark-upload'>): Promise<SparkUploadGrant> {
    const { storedBytes, recordedBytes } = await this.sparks.storageBefore(userId, file.clientSparkId);
    if (storedBytes - recordedBytes + file.bytes > this.storageQuotaBytes) throw this.storageFull(storedBytes);
    return this.media.grantUpload(userId, file);
  }

  /**
   * Claims the uploaded file (checked, location removed, stored under the client's prefix), records the spark, then
   * releases the upload for deletion. Idempotent on (user, clientSparkId): a retried capture is answered with the first
   * spark and its own copy of the file deleted, as is the file of a capture the quota refuses; this request delivered
   * again after its spark was recorded is answered with that spark (whether its upload is still there to claim or
   * already gone), and delivered again after a replica died before recording, it claims the upload anew.
   */
  async record(request: PayloadOf<'progress.record-spark'>): Promise<RecordSparkResponse> {
    const timeZone = await this.timeZones.storable(request.timeZone);
    let file: SparkFile;
    try {
      file = await this.media.claimUpload(request.userId, request);
    } catch (error) {
      // Looked up only when the upload is gone, so a first capture pays no extra query.
      const earlier =
        error instanceof DomainError && error.code === 'NOT_FOUND' ? await this.sparks.findRecorded(request.userId, request.clientSparkId) : undefined;
      if (!earlier) throw error;
      const progress = toProgress(earlier.progress);
      return { spark: toSpark(earlier.spark), created: false, progress, milestone: milestoneMessage(progress.sparkCount) };
    }
    try {
      const result = await this.recordClaimed(request, timeZone, file);
      const progress = toProgress(result.progress);
      return { spark: toSpark(result.spark), created: result.created, progress, milestone: milestoneMessage(progress.sparkCount) };
    } finally {
      // Only now: a replica that dies before the spark is committed leaves the upload for the delivery that follows.
      this.media.releaseUpload(file);
    }
  }

  private async recordClaimed(request: PayloadOf<'progress.record-spark'>, timeZone: string, file: SparkFile) {
    const now = this.now();
    const today = localDate(now, timeZone);
    const takenAt = sparkTakenAt(request, now);
    const firstCycle = { start: today, end: addDays(today, cycleLengthDays(null)) };
    const sparkDate = localDate(takenAt, timeZone);
    const spark = {
      ...request,
      takenAt,
      timeZone,
      localDate: sparkDate,
      sparkType: file.type.kind === 'image' ? ('photo' as const) : ('file' as const),
      fileKey: file.key,
      fileType: file.type.mime,
      fileBytes: file.bytes,
    };
    const result = await this.sparks
      .record(spark, firstCycle, this.storageQuotaBytes, (progress, history) =>
        streakAfterSpark(
          { streakCount: progress.streak_count, lastSparkDate: progress.last_spark_date },
          sparkDate,
          skippedBy(restCalendarOf(progress, history?.pauseDays ?? progress.pause_days_since)),
          history?.sparkedDays,
        ),
      )
      .catch(async (error: unknown) => {
        if (error instanceof StorageFullError || !(await this.holdsFile(request, file))) await this.media.discard(file);
        throw error instanceof StorageFullError ? this.storageFull(error.storedBytes) : error;
      });
    if (!result.created) await this.media.discard(file);
    return result;
  }

  /**
   * Whether the capture's spark was recorded with `file` after all: a failure may come after the commit (the answer
   * lost on its way back), and the file is then the spark's. When that cannot be told, the file is kept.
   */
  private holdsFile(request: PayloadOf<'progress.record-spark'>, file: SparkFile): Promise<boolean> {
    return this.sparks.findRecorded(request.userId, request.clientSparkId).then(
      (recorded) => recorded?.spark.file_key === file.key,
      () => true,
    );
  }

  private storageFull(storedBytes: number): DomainError {
    return new DomainError(
      'PAYLOAD_TOO_LARGE',
      `Your storage is full: your sparks already use ${readableSize(storedBytes)} of your ${readableSize(this.storageQuotaBytes)}, so this one was not saved. Please ask your coach to make room.`,
    );
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
