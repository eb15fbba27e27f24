import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '@spark/messaging';

/** Passes bytes through and fails the stream with 413 as soon as more than `maxBytes` went by. */
export class ByteLimit extends Transform {
  private seen = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLargeMessage: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return done(new DomainError('PAYLOAD_TOO_LARGE', this.tooLargeMessage));
    done(null, chunk);
  }
}
