import fastifyMultipart from '@fastify/multipart';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { SPARK_VIDEO_MAX_BYTES } from '@spark/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Adds multipart parsing when the app starts, with tight defaults (one file, a few small fields):
 * only the capture route reads parts, and it passes its own per-call limits.
 */
@Injectable()
export class MultipartRegistration implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(fastifyMultipart, {
      limits: { files: 1, fields: 5, parts: 6, fieldSize: 4096, fileSize: SPARK_VIDEO_MAX_BYTES + 1, headerPairs: 50 },
    });
  }
}
