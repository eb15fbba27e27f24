import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import {
  captureFieldsSchema,
  type PayloadOf,
  type RecordSparkResponse,
  SPARK_VIDEO_MAX_BYTES,
  sparkListQuerySchema,
  toFieldErrors,
  uuidSchema,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { ServiceBus } from '@spark/messaging';
import { ObjectStorage } from '@spark/storage';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser } from '../auth/auth.decorators';
import { UploadRoute } from '../http/upload-route';
import { ZodPipe } from '../http/zod-body.pipe';
import { SignedSparks } from './signed-sparks';
import { storeSparkFile } from './spark-upload';
import { Responds } from '../docs/responds.decorator';

// Room for the multipart boundaries and the small fields around the largest allowed video.
const MAX_REQUEST_BYTES = SPARK_VIDEO_MAX_BYTES + 64 * 1024;
const PART_LIMITS = { files: 1, fields: 3, parts: 4, fieldSize: 4096, fileSize: SPARK_VIDEO_MAX_BYTES + 1 };

const noFile = () => new DomainError('VALIDATION_FAILED', 'Please select a photo or file to capture', { fieldErrors: { file: ['No file selected'] } });

/** A client's own sparks: capture (multipart, fields first, then the file) and reading them back. */
@Controller('api/sparks')
export class SparksController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
    @Inject(SignedSparks) private readonly signed: SignedSparks,
  ) {}

  @Responds('progress.record-spark')
  @Post()
  @UploadRoute()
  @HttpCode(201)
  async capture(@Req() request: FastifyRequest, @CurrentUser() user: AuthenticatedUser): Promise<RecordSparkResponse> {
    if (!request.isMultipart()) throw noFile();
    if (Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_BYTES) throw new DomainError('PAYLOAD_TOO_LARGE', 'Files can be at most 100 MB.');
    const fields: Record<string, string> = {};
    let recorded: RecordSparkResponse | undefined;
    for await (const part of request.parts({ limits: PART_LIMITS })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const capture = captureFieldsSchema.safeParse(fields);
      if (!capture.success) {
        part.file.resume();
        throw new DomainError('VALIDATION_FAILED', 'Some fields are invalid.', { fieldErrors: toFieldErrors(capture.error) });
      }
      const stored = await storeSparkFile(this.storage, user.id, part.file);
      recorded = await this.bus
        .request('progress.record-spark', {
          userId: user.id,
          email: user.email,
          clientSparkId: capture.data.clientSparkId,
          sparkType: stored.type.kind === 'image' ? 'photo' : 'file',
          fileKey: stored.key,
          fileType: stored.type.mime,
          fileBytes: stored.bytes,
          note: capture.data.note,
          timeZone: capture.data.timeZone,
        })
        .catch(async (error: unknown) => {
          // Refused (the storage quota, a field the service rejects): nothing was recorded, so the file must not stay
          // either. A 5xx (the service unreachable or too slow) may still have recorded it: that file is kept.
          if (error instanceof DomainError && error.status < 500) await this.storage.delete(stored.key).catch(() => undefined);
          throw error;
        });
      // A retried upload of a spark already recorded: keep the first file, drop this copy.
      if (!recorded.created) await this.storage.delete(stored.key).catch(() => undefined);
    }
    if (!recorded) throw noFile();
    return { ...recorded, spark: await this.signed.sign(recorded.spark) };
  }

  @Responds('progress.list-sparks')
  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(sparkListQuerySchema)) query: Omit<PayloadOf<'progress.list-sparks'>, 'userId'>) {
    return this.signed.signPage(await this.bus.request('progress.list-sparks', { ...query, userId: user.id }));
  }

  /** A client reads only its own sparks (anyone else's is 404); coaches and admins read any. */
  @Responds('progress.get-spark')
  @Get(':id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id', new ZodPipe(uuidSchema)) sparkId: string) {
    const ownerId = user.role === 'client' ? user.id : undefined;
    return this.signed.sign(await this.bus.request('progress.get-spark', { sparkId, ownerId }));
  }
}
