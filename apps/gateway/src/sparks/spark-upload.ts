import type { Readable } from 'node:stream';
import { SPARK_IMAGE_MAX_BYTES, SPARK_VIDEO_MAX_BYTES } from '@spark/contracts';
import { DomainError } from '@spark/messaging';
import type { ObjectStorage } from '@spark/storage';
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
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * The file as S3 should get it: the peeked head, then the rest as S3 pulls it (back-pressure kept),
 * failing with 413 as soon as more than the kind's limit went by, location removed from JPEG photos.
 */
async function* checkedBody(head: Buffer, iterator: AsyncIterator<Buffer>, type: SniffedType): AsyncGenerator<Buffer> {
  const limit = limitOf(type);
  const stripper = type.mime === 'image/jpeg' ? new JpegLocationStripper() : undefined;
  let seen = 0;
  for (let chunk: Buffer | undefined = head; chunk; chunk = await nextChunk(iterator)) {
    seen += chunk.length;
    if (seen > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `${type.kind === 'image' ? 'Photos' : 'Videos'} can be at most ${megabytes(limit)}.`);
    if (stripper) yield* stripper.write(chunk);
    else yield chunk;
  }
  if (stripper) yield* stripper.end();
}

const nextChunk = async (iterator: AsyncIterator<Buffer>) => {
  const next = await iterator.next();
  return next.done ? undefined : next.value;
};

/**
 * Streams one uploaded file to `{userId}/{timestamp}.{ext}` in the sparks bucket: the real type from
 * its first bytes (415 otherwise), the size limit of its kind while it flows (413), location removed
 * from JPEG photos. Only S3's part buffers are ever held in memory, never the whole file. Plain async
 * iteration, no stream pipeline: for a small photo the pipeline's machinery cost more than the copy.
 */
export async function storeSparkFile(storage: ObjectStorage, userId: string, file: Readable): Promise<StoredUpload> {
  const iterator = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = await readHead(iterator);
  const type = sniffFileType(head);
  if (!type) {
    file.destroy();
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Only photos (JPEG, PNG, GIF, WebP, HEIC) and videos (MP4, MOV, WebM) can be captured.');
  }
  const key = `${userId}/${Date.now()}.${type.ext}`;
  try {
    // A failing file (413, a cut connection) rejects the put with its own error, which explains more than S3's.
    await storage.put({ key, body: checkedBody(head, iterator, type), contentType: type.mime });
    return { key, type };
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
}
