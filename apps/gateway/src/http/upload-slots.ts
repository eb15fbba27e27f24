import { randomUUID } from 'node:crypto';
import { applyDecorators, type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import { DomainError } from '@spark/errors';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { finalize, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/access-token.guard';
import { redisUnavailable } from './redis-unavailable';
import { MULTIPART_OVERHEAD_BYTES, UPLOAD_MAX_FILE_BYTES } from './upload-route';
import { WithRouteConfig } from './route-config';

export interface UploadSlotLimits {
  perUser: number;
  /** What the uploads in flight on this process may hold in memory together, in bytes. */
  gatewayMemoryBytes: number;
  /** How long a slot outlives a replica that died holding it: longer than any request may last. */
  leaseMs: number;
}

// Upload routes read the whole file into memory, so an upload holds its body twice at the end (the chunks as they
// came, and their joined copy); a body declared longer than the largest route's limit is refused.
const HELD_COPIES = 2;
export const UPLOAD_MAX_HELD_BYTES = HELD_COPIES * (UPLOAD_MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES);

/** What an upload may hold: two copies of its declared body, no more than any upload holds. */
export const heldBytesOf = (contentLength: string | undefined) => {
  const declared = Number(contentLength);
  return Number.isSafeInteger(declared) && declared > 0 ? Math.min(HELD_COPIES * declared, UPLOAD_MAX_HELD_BYTES) : UPLOAD_MAX_HELD_BYTES;
};

// Takes a slot in the user's sorted set (member = slot id, score = lease end by Redis's clock) unless
// the live ones already reach the limit; expired slots of a dead replica are dropped first.
const TAKE_SLOT = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

// Uploads end in seconds to minutes, so a short wait is the honest hint.
const RETRY_AFTER_SECONDS = 5;

/**
 * Caps the uploads in flight: a number per user across every replica (Redis), and per gateway process
 * the memory they may hold, so many small images pass while only a few large decks are read at once.
 */
export class UploadSlots {
  private heldBytes = 0;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly limits: UploadSlotLimits,
  ) {}

  /** Takes a slot for `userId`'s (or an address's) upload holding up to `bytes`, or throws RATE_LIMITED; the returned function gives it back (once). */
  async take(userId: string, bytes: number): Promise<() => void> {
    if (this.heldBytes + bytes > this.limits.gatewayMemoryBytes) {
      throw new DomainError('RATE_LIMITED', `Too many uploads in progress right now. Please try again in ${RETRY_AFTER_SECONDS} seconds.`, {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    this.heldBytes += bytes;
    const key = `${this.keyPrefix}:gateway:upload-slots:${userId}`;
    const slot = randomUUID();
    try {
      const taken = await this.redis.eval(TAKE_SLOT, 1, key, this.limits.perUser, this.limits.leaseMs, slot);
      if (taken !== 1) {
        throw new DomainError('RATE_LIMITED', `You already have ${this.limits.perUser} uploads in progress. Please wait for one to finish, then try again.`, {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
    } catch (error) {
      this.heldBytes -= bytes;
      redisUnavailable(error);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.heldBytes -= bytes;
      void this.redis.zrem(key, slot).catch(() => undefined);
    };
  }
}

/**
 * Holds an upload slot for each request to an @UploadRoute() from the moment the user is known until
 * the answer is sent or the connection is gone, whichever comes first.
 */
@Injectable()
export class UploadSlotsInterceptor implements NestInterceptor {
  constructor(@Inject(UploadSlots) private readonly slots: UploadSlots) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Upload routes are signed in; the address stands in should one ever be public.
    const owner = (request.user as AuthenticatedRequest['user'] | undefined)?.id ?? `ip:${request.ip}`;
    const release = await this.slots.take(owner, heldBytesOf(request.headers['content-length']));
    // The response closes when it is sent, and also when the client's connection goes away mid-upload.
    context.switchToHttp().getResponse<FastifyReply>().raw.once('close', release);
    return next.handle().pipe(finalize(release));
  }
}

/**
 * Marks a route that takes a multipart file upload (every other route takes JSON only) and holds an upload slot
 * while it runs. Only these routes pay for the interceptor: Nest runs none on a route that has none.
 */
export const UploadRoute = () => applyDecorators(WithRouteConfig({ uploadRoute: true }), UseInterceptors(UploadSlotsInterceptor));
