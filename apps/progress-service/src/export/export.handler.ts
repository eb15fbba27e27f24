import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type PayloadOf, QUEUES, type RequestExportResponse } from '@spark/contracts';
import { type OutboxRelay, outboxInsertSql, outboxRows } from '@spark/jobs';
import type { DataSource } from 'typeorm';

/** Queues data exports through the outbox, so a request answered here is not lost by a Redis outage. */
export class ExportRequests {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxRelay,
  ) {}

  async queue(request: PayloadOf<'progress.request-export'>): Promise<void> {
    await this.dataSource.query(outboxInsertSql('progress', 1), outboxRows([{ queue: QUEUES.export, name: 'export-client-data', data: request }]));
    this.outbox.kick();
  }
}

@Controller()
export class ExportHandler {
  constructor(private readonly requests: ExportRequests) {}

  @MessagePattern('progress.request-export')
  async requestExport(@Payload() request: PayloadOf<'progress.request-export'>): Promise<RequestExportResponse> {
    await this.requests.queue(request);
    return { queued: true };
  }
}
