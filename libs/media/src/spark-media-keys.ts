import { randomBytes } from 'node:crypto';

/** Every spark file of a client is stored under this prefix in the sparks bucket (export and erasure rely on it). */
export const sparkMediaPrefix = (userId: string) => `${userId}/`;

/** Where browsers upload before the file is checked; nothing under it is ever served. */
export const INCOMING_SPARK_PREFIX = 'incoming/';
export const incomingSparkPrefix = (userId: string) => `${INCOMING_SPARK_PREFIX}${userId}/`;
/** One capture's upload. */
export interface SparkUpload {
  clientSparkId: string;
  uploadId: string;
}
/**
 * The capture's id is part of the key, so an upload can only ever be recorded as the capture it was granted for: the
 * same file recorded under any other id finds nothing.
 */
export const incomingSparkKey = (userId: string, { clientSparkId, uploadId }: SparkUpload) => `${incomingSparkPrefix(userId)}${clientSparkId}/${uploadId}`;
/**
 * Where a version that did not yet put the capture's id in the key stored an upload. Such a grant, made by a replica
 * of that version during a rolling deploy, lives `SPARK_UPLOAD_GRANT_SECONDS`; a claim looks here when the key above
 * holds nothing, so that capture is not lost, and once no replica of that version is left nothing can be stored here.
 */
export const earlierIncomingSparkKey = (userId: string, { uploadId }: SparkUpload) => `${incomingSparkPrefix(userId)}${uploadId}`;

/**
 * `{userId}/{timestamp}-{random}.{ext}`: two captures of one client in the same millisecond must not share an
 * object, or deleting a refused one deletes the other's.
 */
export const sparkFileKey = (userId: string, ext: string) => `${sparkMediaPrefix(userId)}${Date.now()}-${randomBytes(4).toString('hex')}.${ext}`;
