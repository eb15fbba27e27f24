import type { MultipartFile } from '@fastify/multipart';
import { DomainError } from '@spark/messaging';
import type { FastifyRequest } from 'fastify';

const noFile = () => new DomainError('VALIDATION_FAILED', 'Choose a file to upload.', { fieldErrors: { file: ['No file selected'] } });

/** Reads the one file of a multipart request into memory, refusing more than `maxBytes`. */
export async function readUploadedFile(request: FastifyRequest, maxBytes: number): Promise<{ file: MultipartFile; bytes: Buffer }> {
  if (!request.isMultipart()) throw noFile();
  if (Number(request.headers['content-length'] ?? 0) > maxBytes + 64 * 1024) {
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

export function imageContentType(bytes: Buffer): string | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(1, 4) === 'PNG' && bytes[0] === 0x89) return 'image/png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}
