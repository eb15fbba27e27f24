import type { MultipartFile } from '@fastify/multipart';
import { DomainError } from '@spark/errors';
import type { FastifyRequest } from 'fastify';
import { reencodeImage, sniffFileType } from '@spark/media';
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

/** A file as it is stored, with its type. */
export interface CleanFile {
  bytes: Buffer;
  contentType: string;
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

/**
 * A still web image (JPEG, PNG, GIF, WebP), known by its first bytes with the sniffer spark uploads use, re-encoded
 * without the location or camera details it came with; undefined for anything else.
 */
export async function cleanImage(bytes: Buffer): Promise<CleanFile | undefined> {
  const sniffed = sniffFileType(bytes);
  if (sniffed?.cleaning.by !== 'reencode') return undefined;
  return { bytes: await reencodeImage(bytes, sniffed.cleaning.format), contentType: sniffed.mime };
}

/** A deck: a PDF as it came (no image library reads its metadata; docs/decisions.md), or a cleaned image. */
export async function cleanDeck(bytes: Buffer): Promise<CleanFile | undefined> {
  return isPdf(bytes) ? { bytes, contentType: 'application/pdf' } : cleanImage(bytes);
}
