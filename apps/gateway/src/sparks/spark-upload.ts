import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SPARK_IMAGE_MAX_BYTES, SPARK_VIDEO_MAX_BYTES } from '@spark/contracts';
import { DomainError } from '@spark/messaging';
import type { ObjectStorage } from '@spark/storage';
import { ByteLimit } from './byte-limit';
import { SNIFF_BYTES, type SniffedType, sniffFileType } from './file-sniffer';
import { JpegLocationStripper } from './jpeg-location-stripper';

export interface StoredUpload {
  key: string;
  type: SniffedType;
}

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const limitOf = (type: SniffedType) => (type.kind === 'image' ? SPARK_IMAGE_MAX_BYTES : SPARK_VIDEO_MAX_BYTES);

async function readHead(iterator: AsyncIterator<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  return Buffer.concat(chunks);
}

// The peeked head first, then the rest as the consumer pulls it (back-pressure kept).
async function* replay(head: Buffer, iterator: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield head;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}

/**
 * Streams one uploaded file to `{userId}/{timestamp}.{ext}` in the sparks bucket: the real type from
 * its first bytes (415 otherwise), the size limit of its kind while it flows (413), location removed
 * from JPEG photos. Only S3's part buffers are ever held in memory, never the whole file.
 */
export async function storeSparkFile(storage: ObjectStorage, userId: string, file: Readable): Promise<StoredUpload> {
  const iterator = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = await readHead(iterator);
  const type = sniffFileType(head);
  if (!type) {
    file.destroy();
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Only photos (JPEG, PNG, GIF, WebP, HEIC) and videos (MP4, MOV, WebM) can be captured.');
  }
  const limit = new ByteLimit(limitOf(type), `${type.kind === 'image' ? 'Photos' : 'Videos'} can be at most ${megabytes(limitOf(type))}.`);
  const body = type.mime === 'image/jpeg' ? new JpegLocationStripper() : new PassThrough();
  const key = `${userId}/${Date.now()}.${type.ext}`;
  const [flowed, stored] = await Promise.allSettled([
    pipeline(Readable.from(replay(head, iterator)), limit, body),
    // A failed put must also stop the flow, or the pipeline would wait on a reader that left.
    storage.put({ key, body, contentType: type.mime }).catch((error: unknown) => {
      body.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }),
  ]);
  if (flowed.status === 'fulfilled' && stored.status === 'fulfilled') return { key, type };
  await storage.delete(key).catch(() => undefined);
  // The stream's own failure (413, a cut connection) explains more than S3's "body aborted".
  throw flowed.status === 'rejected' ? flowed.reason : (stored as PromiseRejectedResult).reason;
}
