import { type LogImage, logImageExtensions } from '@spark/contracts';
import type { ObjectStorage } from '@spark/storage';

/** Developer's Log images in the log bucket, at `{userId}/{timestamp}-{filename}` (docs/product.md §3). */
export class LogImages {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly bucket: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The name the markdown uses, reduced to safe characters for the key; undefined for other types. */
  static safeName(fileName: string): string | undefined {
    const name = fileName.split(/[\\/]/).pop()?.trim() ?? '';
    const extension = name.split('.').pop()?.toLowerCase() ?? '';
    if (!name.includes('.') || !(logImageExtensions as readonly string[]).includes(extension)) return undefined;
    return name.replace(/[^\w.-]+/g, '-').slice(-120);
  }

  async store(userId: string, name: string, body: Buffer, contentType: string): Promise<LogImage & { previewUrl: string }> {
    const key = `${userId}/${this.clock().getTime()}-${LogImages.safeName(name) ?? 'image'}`;
    await this.storage.put({ bucket: this.bucket, key, body, contentType });
    return { name, key, previewUrl: await this.signedUrl(key) };
  }

  signedUrl(key: string): Promise<string> {
    return this.storage.signedGetUrl(key, { bucket: this.bucket, expiresInSeconds: 3600 });
  }
}
