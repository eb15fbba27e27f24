import { randomUUID } from 'node:crypto';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type ExportStatus, type PayloadOf, QUEUES, type RequestExportResponse } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { type OutboxRelay, outboxInsertSql, outboxRows } from '@spark/jobs';
import type { ObjectStorage } from '@spark/storage';
import type { DataSource } from 'typeorm';

// A link handed to the page is for downloading now, not for keeping: shorter than the e-mailed one.
const PAGE_LINK_SECONDS = 15 * 60;

/** Queues data exports through the outbox, so a request answered here is not lost by a Redis outage. */
export class ExportRequests {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Pick<OutboxRelay, 'kick'>,
    private readonly storage: ObjectStorage,
  ) {}

  /** Idempotent on `exportId`: the same id again answers the export already queued; another client's is 409. */
  async queue({ exportId = randomUUID(), ...request }: PayloadOf<'progress.request-export'>): Promise<RequestExportResponse> {
    const [{ stored_bytes: estimatedBytes, recorded }] = (await this.dataSource.query(
      `WITH recorded AS (INSERT INTO progress.data_exports (id, user_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id)
       SELECT coalesce((SELECT stored_bytes FROM progress.user_progress WHERE user_id = $2), 0)::float8 AS stored_bytes,
              EXISTS (SELECT 1 FROM recorded) AS recorded`,
      [exportId, request.userId],
    )) as [{ stored_bytes: number; recorded: boolean }];
    if (!recorded) {
      // A statement of its own: the one above cannot see a row a request at the same time committed while it waited.
      const [earlier] = (await this.dataSource.query(`SELECT user_id FROM progress.data_exports WHERE id = $1`, [exportId])) as { user_id: string }[];
      if (earlier?.user_id !== request.userId) throw new DomainError('CONFLICT', 'This export id is taken. Please reload the page and ask again.');
      return { queued: true, exportId, estimatedBytes };
    }
    await this.dataSource.query(
      outboxInsertSql('progress', 1),
      outboxRows([{ queue: QUEUES.export, name: 'export-client-data', data: { ...request, exportId } }]),
    );
    this.outbox.kick();
    return { queued: true, exportId, estimatedBytes };
  }

  /** The client's own export: a short-lived download link once it is built. Another client's id is not found. */
  async status({ userId, exportId }: PayloadOf<'progress.get-export'>): Promise<ExportStatus> {
    const [row] = (await this.dataSource.query(`SELECT status, object_key FROM progress.data_exports WHERE id = $1 AND user_id = $2`, [exportId, userId])) as {
      status: 'preparing' | 'ready';
      object_key: string | null;
    }[];
    if (!row) throw new DomainError('NOT_FOUND', 'There is no such export.');
    if (row.status !== 'ready' || !row.object_key) return { status: 'preparing', downloadUrl: null, expiresAt: null };
    const downloadUrl = await this.storage.signedGetUrl(row.object_key, { expiresInSeconds: PAGE_LINK_SECONDS, downloadName: 'spark-data.zip' });
    return { status: 'ready', downloadUrl, expiresAt: new Date(Date.now() + PAGE_LINK_SECONDS * 1000).toISOString() };
  }
}

@Controller()
export class ExportHandler {
  constructor(private readonly requests: ExportRequests) {}

  @MessagePattern('progress.request-export')
  requestExport(@Payload() request: PayloadOf<'progress.request-export'>): Promise<RequestExportResponse> {
    return this.requests.queue(request);
  }

  @MessagePattern('progress.get-export')
  exportStatus(@Payload() request: PayloadOf<'progress.get-export'>): Promise<ExportStatus> {
    return this.requests.status(request);
  }
}
