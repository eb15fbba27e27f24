import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  type CaptureBody,
  captureBodySchema,
  type PayloadOf,
  type RecordSparkResponse,
  type SparkUploadGrantRequest,
  sparkListQuerySchema,
  sparkUploadGrantRequestSchema,
  uuidSchema,
} from '@spark/contracts';
import { ServiceBus } from '@spark/messaging';
import type { AuthenticatedUser } from '../auth/access-token.guard';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { type RateLimit, RateLimiter } from '../http/rate-limiter';
import { ZodPipe } from '../http/zod-body.pipe';
import { SignedSparks } from './signed-sparks';
import { Responds } from '../docs/responds.decorator';

// The service checks and cleans the uploaded file before it answers: the largest video takes seconds, not milliseconds.
const CAPTURE_TIMEOUT_MS = 60_000;
// Each grant lets a file of up to 100 MB into the bucket until the sweep, whether or not it is ever recorded. A
// person captures a few sparks a day and an offline queue flushing a backlog a few dozen (a failed upload takes a
// grant more); the outbox waits and retries after a 429, so even a longer backlog only arrives later.
const UPLOAD_GRANTS_PER_USER: RateLimit = { name: 'spark-upload-grants', max: 60, windowMs: 60 * 60_000 };
// Each recording checks and re-encodes its upload, the costliest work a client can ask for; a capture records once,
// and again only when its answer was lost.
const RECORDINGS_PER_USER: RateLimit = { name: 'spark-recordings', max: 2 * UPLOAD_GRANTS_PER_USER.max, windowMs: UPLOAD_GRANTS_PER_USER.windowMs };

/**
 * A client's own sparks. Capture is two steps, both answered by the progress service: `POST /api/sparks/uploads`
 * grants a signed URL the browser PUTs the file to, straight to storage (refused at once when it would not fit the
 * client's storage); `POST /api/sparks` then records the spark, once the service has checked and cleaned the file.
 * Only clients capture: a spark starts the person's progress, and with it their place in every coach's client list.
 */
@Controller('api/sparks')
export class SparksController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(SignedSparks) private readonly signed: SignedSparks,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  @Responds('progress.grant-spark-upload')
  @Roles('client')
  @Post('uploads')
  @HttpCode(201)
  grantUpload(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(sparkUploadGrantRequestSchema)) body: SparkUploadGrantRequest) {
    const admission = this.limiter.admission({ limit: UPLOAD_GRANTS_PER_USER, subject: user.id });
    return this.bus.request('progress.grant-spark-upload', { ...body, userId: user.id }, { admission });
  }

  @Responds('progress.record-spark')
  @Roles('client')
  @Post()
  @HttpCode(201)
  async capture(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(captureBodySchema)) body: CaptureBody): Promise<RecordSparkResponse> {
    const admission = this.limiter.admission({ limit: RECORDINGS_PER_USER, subject: user.id });
    const recorded = await this.bus.request(
      'progress.record-spark',
      { ...body, userId: user.id, email: user.email },
      { timeoutMs: CAPTURE_TIMEOUT_MS, admission },
    );
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
