import type { MultipartFile } from '@fastify/multipart';
import { DomainError } from '@spark/errors';
import type { FastifyRequest } from 'fastify';
import { sniffFileType } from '@spark/media';
import { MULTIPART_OVERHEAD_BYTES } from '../http/upload-route';

const noFile = () => new DomainError('VALIDATION_FAILED', 'Choose a file to upload.', { fieldErrors: { file: ['No file selected'] } });

/** Reads the one file of a multipart request into memory, refusing more than `maxBytes`. */
export async function readUploadedFile(request: FastifyRequest, maxBytes: number): Promise<{ file: MultipartFile; bytes: Buffer }> {
  if (!request.isMultipart()) throw noFile();
  if (Number(request.headers['content-length'] ?? 0) > maxBytes + MULTIPART_OVERHEAD_BYTES) {
    throw new DomainError('PAYLOAD_TOO_LARGE', `Files can be at most ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  }
  const file = await request.file({ limits: { files: 1, fields: 2, parts: 3, fileSize: maxBytes } });
  if (!file) throw noFile();
  const bytes = await file.toBuffer().catch((error: unknown) => {
    throw (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
      ? new DomainError('PAYLOAD_TOO_LARGE', `Files can be at most ${Math.round(maxBytes / 1024 / 1024)} MB.`)
      : error;
  });
  return { file, bytes };
}

/** PDF or a web image, by the file's first bytes rather than its name. */
export function deckContentType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return imageContentType(bytes);
}

/** A still web image (JPEG, PNG, GIF, WebP), by its first bytes; the sniffer spark uploads use. */
export function imageContentType(bytes: Buffer): string | undefined {
  const sniffed = sniffFileType(bytes);
  return sniffed?.cleaning.by === 'reencode' ? sniffed.mime : undefined;
}
