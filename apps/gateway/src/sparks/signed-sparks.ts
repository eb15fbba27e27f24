import type { Spark, SparkPage } from '@spark/contracts';
import type { ObjectStorage } from '@spark/storage';

// Long enough to view a video, short enough that a shared link soon stops working.
const SIGNED_URL_SECONDS = 15 * 60;

/** Adds short-lived signed URLs to sparks the caller was already allowed to read. */
export class SignedSparks {
  constructor(private readonly storage: ObjectStorage) {}

  async sign(spark: Spark): Promise<Spark> {
    return { ...spark, fileUrl: await this.storage.signedGetUrl(spark.fileKey, { expiresInSeconds: SIGNED_URL_SECONDS }) };
  }

  async signPage(page: SparkPage): Promise<SparkPage> {
    return { ...page, items: await Promise.all(page.items.map((spark) => this.sign(spark))) };
  }
}
