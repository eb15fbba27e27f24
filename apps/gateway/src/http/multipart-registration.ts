import fastifyMultipart from '@fastify/multipart';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/**
 * Adds multipart parsing when the app starts, with tight defaults (one file, a few small fields): only the admins'
 * upload routes (deck files, log images) read parts, each passing its own limits, the file's size among them.
 */
@Injectable()
export class MultipartRegistration implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(fastifyMultipart, {
      limits: { files: 1, fields: 5, parts: 6, fieldSize: 4096, headerPairs: 50 },
    });
  }
}
