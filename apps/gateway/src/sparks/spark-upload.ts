import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { SPARK_IMAGE_MAX_BYTES, SPARK_VIDEO_MAX_BYTES } from '@spark/contracts';
import { DomainError } from '@spark/errors';
import { type ObjectStorage, sparkMediaPrefix } from '@spark/storage';
import { reencodeImage } from '../media/image-reencoder';
import { type IsoBmffFlavour, IsoBmffLocationScrubber } from '../media/iso-bmff-location-scrubber';
import { withSpooledFile } from '../media/spooled-file';
import { SNIFF_BYTES, type SniffedType, sniffFileType } from '../media/file-sniffer';

export interface StoredUpload {
  key: string;
  type: SniffedType;
  /** The stored object's size, location removed. */
  bytes: number;
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

/** The peeked head, then the rest as it is pulled (back-pressure kept), failing with 413 as soon as more than the kind's limit went by. */
async function* limitedBody(head: Buffer, iterator: AsyncIterator<Buffer>, type: SniffedType): AsyncGenerator<Buffer> {
  const limit = limitOf(type);
  let seen = 0;
  for (let chunk: Buffer | undefined = head; chunk; chunk = await nextChunk(iterator)) {
    seen += chunk.length;
    if (seen > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `${type.kind === 'image' ? 'Photos' : 'Videos'} can be at most ${megabytes(limit)}.`);
    yield chunk;
  }
}

const nextChunk = async (iterator: AsyncIterator<Buffer>) => {
  const next = await iterator.next();
  return next.done ? undefined : next.value;
};

async function* scrubbed(body: AsyncIterable<Buffer>, flavour: IsoBmffFlavour, stored: { bytes: number }): AsyncGenerator<Buffer> {
  const scrubber = new IsoBmffLocationScrubber(flavour);
  for await (const chunk of body) {
    for (const clean of scrubber.write(chunk)) {
      stored.bytes += clean.length;
      yield clean;
    }
  }
  for (const clean of scrubber.end()) {
    stored.bytes += clean.length;
    yield clean;
  }
}

/** Puts the file without its location: photos re-encoded from a spooled copy, videos and HEIF blanked as they stream. */
async function putClean(storage: ObjectStorage, key: string, type: SniffedType, body: AsyncIterable<Buffer>): Promise<number> {
  const { cleaning } = type;
  if (cleaning.by === 'reencode') {
    return withSpooledFile(body, async (path) => {
      const clean = await reencodeImage(path, cleaning.format);
      await storage.put({ key, body: clean, contentType: type.mime });
      return clean.length;
    });
  }
  const stored = { bytes: 0 };
  await storage.put({ key, body: scrubbed(body, cleaning.flavour, stored), contentType: type.mime });
  return stored.bytes;
}

/**
 * Streams one uploaded file to `{userId}/{timestamp}-{random}.{ext}` in the sparks bucket (two captures of one
 * client in the same millisecond must not share an object, or deleting a refused one deletes the other's): the real type from
 * its first bytes (415 otherwise), the size limit of its kind while it flows (413), and location and
 * other identifying metadata removed before anything reaches S3. Only S3's part buffers (videos) or
 * one re-encoded photo are held in memory, never a whole upload in flight. Plain async iteration, no
 * stream pipeline: for a small photo the pipeline's machinery cost more than the copy.
 */
export async function storeSparkFile(storage: ObjectStorage, userId: string, file: Readable): Promise<StoredUpload> {
  const iterator = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = await readHead(iterator);
  const type = sniffFileType(head);
  if (!type) {
    file.destroy();
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Only photos (JPEG, PNG, GIF, WebP, HEIC, AVIF) and videos (MP4, MOV) can be captured.');
  }
  const key = `${sparkMediaPrefix(userId)}${Date.now()}-${randomBytes(4).toString('hex')}.${type.ext}`;
  try {
    // A failing file (413, a cut connection) rejects the put with its own error, which explains more than S3's.
    const bytes = await putClean(storage, key, type, limitedBody(head, iterator, type));
    return { key, type, bytes };
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
}
