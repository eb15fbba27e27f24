import { randomUUID } from 'node:crypto';
import {
  SPARK_IMAGE_MAX_BYTES,
  SPARK_UPLOAD_GRANT_SECONDS,
  SPARK_VIDEO_MAX_BYTES,
  type SparkUploadGrant,
  type SparkUploadGrantRequest,
  waitPhrase,
} from '@spark/contracts';
import { DomainError } from '@spark/errors';
import type { ObjectStorage, OpenedObject } from '@spark/storage';
import { ConcurrencyLimit } from './concurrency-limit';
import { SNIFF_BYTES, type SniffedType, sniffFileType } from './file-sniffer';
import { reencodeImage } from './image-reencoder';
import { type IsoBmffFlavour, IsoBmffLocationScrubber } from './iso-bmff-location-scrubber';
import { earlierIncomingSparkKey, incomingSparkKey, INCOMING_SPARK_PREFIX, type SparkUpload, sparkFileKey } from './spark-media-keys';

/** Where an upload may be: its key, or where a replica of the version before stored it (`earlierIncomingSparkKey`). */
const incomingKeys = (userId: string, upload: SparkUpload) => [incomingSparkKey(userId, upload), earlierIncomingSparkKey(userId, upload)];

/** A checked spark file, stored without its location under its owner's prefix. */
export interface SparkFile {
  key: string;
  type: SniffedType;
  /** The stored object's size, location removed. */
  bytes: number;
  /** The upload it was read from, which `releaseUpload` deletes. */
  upload: string;
}

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const limitOf = (kind: SniffedType['kind']) => (kind === 'image' ? SPARK_IMAGE_MAX_BYTES : SPARK_VIDEO_MAX_BYTES);
const tooLarge = (kind: SniffedType['kind']) =>
  new DomainError('PAYLOAD_TOO_LARGE', `${kind === 'image' ? 'Photos' : 'Videos'} can be at most ${megabytes(limitOf(kind))}.`);
const unsupported = () => new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Only photos (JPEG, PNG, GIF, WebP, HEIC, AVIF) and videos (MP4, MOV) can be captured.');
// A claim holds its photo whole, or S3's part buffers of a video (photos are re-encoded one at a time on top): up
// to about an image's limit each, so a process holds at most two large files at once, or many small photos.
const HELD_FILE_BYTES = 2 * SPARK_IMAGE_MAX_BYTES;
// A claim waiting for room keeps its download open, and a running one sends up to two parts at once: this bound
// keeps them all well inside storage's socket pools, so the running claims always get the sockets they need.
const CLAIMS_IN_FLIGHT = 8;
// A client's device sends its sparks one at a time; a second tab or device, or a capture made while the outbox
// sends, adds one or two. More at once is a script, whose re-encodes and scrubs would each make everyone's capture
// wait behind them while the service's handlers sit in the queue: the rest are refused for a moment, their uploads
// kept, and the app keeps the spark on the device and sends it again.
const CLAIMS_PER_CLIENT = 3;
const CLAIM_AGAIN_SECONDS = 5;
const stillSaving = () =>
  new DomainError('RATE_LIMITED', `Your earlier sparks are still being saved. Please try again in ${waitPhrase(CLAIM_AGAIN_SECONDS)}.`, {
    retryAfterSeconds: CLAIM_AGAIN_SECONDS,
  });

/**
 * Spark media from the browser to the sparks bucket. The browser uploads straight to S3 (a signed PUT of exactly
 * the declared size to `incoming/{userId}/{clientSparkId}/{uploadId}`), so no application process holds a file while it crosses the
 * internet. Claiming the upload then checks it as if nothing had been checked before: the real type from its first
 * bytes (415), its kind's size limit (413), location and identifying metadata removed, and it is stored under the
 * client's own prefix. The incoming object is deleted whatever the outcome (by the caller through `releaseUpload` once
 * it has recorded a claimed file), and a claimed file the caller then refuses (a full storage, a duplicate) is deleted
 * through `discard`, so no object is left behind. Uploads granted but never claimed, and any a deletion missed, are
 * deleted by `sweepUnclaimed`.
 */
export class SparkMedia {
  // A claim passes each of these and the re-encode in its client's turn: a first come first served stage before the
  // re-encode would let one client's large photos, two of which fill the held bytes, keep another's from reaching it.
  private readonly claimsInFlight = new ConcurrencyLimit(CLAIMS_IN_FLIGHT);
  private readonly heldFiles = new ConcurrencyLimit(HELD_FILE_BYTES);
  private readonly claimsByClient = new Map<string, number>();

  constructor(private readonly storage: ObjectStorage) {}

  /** A signed PUT for one file of one capture; refuses at once a size no kind allows (413). */
  async grantUpload(userId: string, request: SparkUploadGrantRequest): Promise<SparkUploadGrant> {
    const kind = request.contentType.startsWith('image/') ? 'image' : 'video';
    if (request.bytes > limitOf(kind)) throw tooLarge(kind);
    const uploadId = randomUUID();
    const url = await this.storage.signedPutUrl(incomingSparkKey(userId, { clientSparkId: request.clientSparkId, uploadId }), {
      bytes: request.bytes,
      contentType: request.contentType,
      expiresInSeconds: SPARK_UPLOAD_GRANT_SECONDS,
    });
    return { uploadId, url, headers: { 'Content-Type': request.contentType } };
  }

  /**
   * The uploaded file, checked and cleaned, under its final key; 404 when there is no such upload. A refused upload is
   * deleted at once; an accepted one stays until `releaseUpload`, which the caller calls once the spark is recorded (or
   * refused), so a recording delivered again after a crash still finds it. A client's claim beyond
   * CLAIMS_PER_CLIENT at once in this process is refused (429) with its upload kept.
   */
  async claimUpload(userId: string, upload: SparkUpload): Promise<SparkFile> {
    const running = this.claimsByClient.get(userId) ?? 0;
    if (running >= CLAIMS_PER_CLIENT) throw stillSaving();
    this.claimsByClient.set(userId, running + 1);
    try {
      return await this.claimsInFlight.run(() => this.clean(userId, upload), 1, userId);
    } catch (error) {
      await Promise.all(incomingKeys(userId, upload).map((key) => this.storage.delete(key).catch(() => undefined)));
      throw error;
    } finally {
      const left = (this.claimsByClient.get(userId) ?? 1) - 1;
      if (left > 0) this.claimsByClient.set(userId, left);
      else this.claimsByClient.delete(userId);
    }
  }

  /**
   * Deletes the upload a claim read, soon and with the others released meanwhile, so the capture's answer does not
   * wait for S3. Whatever S3 answers, the sweep of unclaimed uploads deletes what is left.
   */
  releaseUpload(file: SparkFile): void {
    this.storage.deleteLater(file.upload);
  }

  async discard(file: SparkFile): Promise<void> {
    await this.storage.delete(file.key).catch(() => undefined);
  }

  /** Deletes uploads granted before `cutoff` and never claimed; returns how many. */
  sweepUnclaimed(cutoff: Date): Promise<number> {
    return this.storage.deleteOlderThan(INCOMING_SPARK_PREFIX, cutoff);
  }

  private async clean(userId: string, upload: SparkUpload): Promise<SparkFile> {
    const found = await this.openUpload(userId, upload);
    if (!found) throw new DomainError('NOT_FOUND', 'This upload was not found. Please capture your spark again.');
    const { key, uploaded } = found;
    try {
      if (uploaded.bytes > SPARK_VIDEO_MAX_BYTES) throw tooLarge('video');
      const clean = await this.heldFiles.run(() => this.cleanBody(userId, uploaded), Math.min(uploaded.bytes, SPARK_IMAGE_MAX_BYTES), userId);
      return { ...clean, upload: key };
    } finally {
      uploaded.body.destroy();
    }
  }

  private async openUpload(userId: string, upload: SparkUpload): Promise<{ key: string; uploaded: OpenedObject } | undefined> {
    for (const key of incomingKeys(userId, upload)) {
      const uploaded = await this.storage.open(key);
      if (uploaded) return { key, uploaded };
    }
    return undefined;
  }

  private async cleanBody(userId: string, uploaded: OpenedObject): Promise<Omit<SparkFile, 'upload'>> {
    const iterator = uploaded.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const head = await readHead(iterator);
    const type = sniffFileType(head);
    if (!type) throw unsupported();
    if (uploaded.bytes > limitOf(type.kind)) throw tooLarge(type.kind);
    const key = sparkFileKey(userId, type.ext);
    try {
      return { key, type, bytes: await this.putClean(userId, key, type, rest(head, iterator)) };
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Puts the file without its location: photos read whole (at most the image limit, from S3 at its speed) and
   * re-encoded in their owner's turn, videos and HEIF blanked as they stream.
   */
  private async putClean(owner: string, key: string, type: SniffedType, body: AsyncIterable<Buffer>): Promise<number> {
    const { cleaning } = type;
    if (cleaning.by === 'reencode') {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk);
      const clean = await reencodeImage(Buffer.concat(chunks), cleaning.format, owner);
      await this.storage.put({ key, body: clean, contentType: type.mime });
      return clean.length;
    }
    const stored = { bytes: 0 };
    await this.storage.put({ key, body: scrubbed(body, cleaning.flavour, stored), contentType: type.mime });
    return stored.bytes;
  }
}

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

/** The peeked head, then the rest as it is pulled (back-pressure kept). */
async function* rest(head: Buffer, iterator: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield head;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}

async function* scrubbed(body: AsyncIterable<Buffer>, flavour: IsoBmffFlavour, stored: { bytes: number }): AsyncGenerator<Buffer> {
  const scrubber = new IsoBmffLocationScrubber(flavour);
  for await (const chunk of body) {
    // One piece per chunk read: a chunk of many small boxes is one step on to the upload, not one per box.
    const cleaned = scrubber.write(chunk);
    const clean = cleaned.length === 1 ? (cleaned[0] as Buffer) : Buffer.concat(cleaned);
    stored.bytes += clean.length;
    if (clean.length > 0) yield clean;
  }
  for (const clean of scrubber.end()) {
    stored.bytes += clean.length;
    yield clean;
  }
}
