import {
  type ExportStatus,
  exportStatusSchema,
  type HomeResponse,
  homeResponseSchema,
  type RequestExportResponse,
  type RecordSparkResponse,
  recordSparkResponseSchema,
  requestExportResponseSchema,
  type RestDays,
  restDaysSchema,
  sparkUploadGrantRequestSchema,
  sparkUploadGrantSchema,
} from '@spark/contracts';
import { ApiError, apiRequest } from '../../../api/client';
import { putFile } from '../../../api/put-file';

/** Every person's home in the cache; `homeQueryKeyOf` names one person's. */
export const homeQueryKey = ['progress', 'home'] as const;
// Keyed by whose it is: a home opened from the device's data without a session may be followed in the same tab by the
// home of whoever signs in next, which must never be shown the first person's answer.
export const homeQueryKeyOf = (userId: string) => [...homeQueryKey, userId] as const;

/** `userId`'s home, asked for under their session only. */
export async function fetchHome(userId: string): Promise<HomeResponse> {
  return homeResponseSchema.parse(await apiRequest<unknown>('GET', '/progress/me', undefined, { asUser: userId }));
}

export interface SparkUpload {
  /** Whose capture it is: each of its requests goes out under their session only, whoever uses the tab meanwhile. */
  userId: string;
  clientSparkId: string;
  file: Blob;
  fileName: string;
  note: string;
  timeZone: string;
  /** When the device took it (ISO), which dates the spark however late it is recorded. */
  createdAt: string;
  /** The upload an earlier try already stored the file in, when its recording did not go through. */
  uploadId?: string;
}

/** Where a try keeps the id of the upload its file went to, for the tries after it. */
export type UploadNoter = (uploadId: string) => Promise<void>;

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * Capture in two steps: the server grants a signed URL (or refuses at once a file the storage cannot take), the
 * file goes straight to storage, and the spark is then recorded with the upload's id (the server checks the file
 * before it answers). A recording that did not go through (Spark busy or restarting, the connection cut) is tried
 * again with the upload already stored, so a large file crosses the network once. A failed PUT is retried as a whole
 * capture, with a new upload, under the same client id, and so is an upload the server no longer finds: one swept
 * while the device was offline between the two steps, or one a refused check deleted.
 */
export async function uploadSpark(upload: SparkUpload, noteUpload: UploadNoter = async () => undefined): Promise<RecordSparkResponse> {
  if (upload.uploadId) {
    try {
      return await recordSpark(upload, upload.uploadId);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  try {
    return await grantUploadAndRecord(upload, noteUpload);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return grantUploadAndRecord(upload, noteUpload);
  }
}

async function grantUploadAndRecord(upload: SparkUpload, noteUpload: UploadNoter): Promise<RecordSparkResponse> {
  const declared = sparkUploadGrantRequestSchema.shape.contentType.safeParse(upload.file.type || undefined);
  const grant = sparkUploadGrantSchema.parse(
    await apiRequest<unknown>(
      'POST',
      '/sparks/uploads',
      { clientSparkId: upload.clientSparkId, bytes: upload.file.size, contentType: declared.success ? declared.data : undefined },
      { asUser: upload.userId },
    ),
  );
  const status = await putFile(grant.url, grant.headers, upload.file);
  if (status < 200 || status > 299) throw new Error(`Storage answered ${status} to the upload`);
  // A device that cannot note it sends the file again on its next try, as before.
  await noteUpload(grant.uploadId).catch(() => undefined);
  return recordSpark(upload, grant.uploadId);
}

async function recordSpark(upload: SparkUpload, uploadId: string): Promise<RecordSparkResponse> {
  const note = upload.note.trim() ? upload.note : undefined;
  const body = {
    clientSparkId: upload.clientSparkId,
    uploadId,
    timeZone: upload.timeZone,
    note,
    takenAt: upload.createdAt,
    sentAt: new Date().toISOString(),
  };
  return recordSparkResponseSchema.parse(await apiRequest<unknown>('POST', '/sparks', body, { asUser: upload.userId }));
}

export const deviceTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export async function takePauseDay(date: string): Promise<RestDays> {
  return restDaysSchema.parse(await apiRequest<unknown>('POST', '/progress/me/pause-days', { date }));
}

export async function setRestDay(restWeekday: number | null): Promise<RestDays> {
  return restDaysSchema.parse(await apiRequest<unknown>('PUT', '/progress/me/rest-day', { restWeekday }));
}

/** Queues "Download my data": the archive's link arrives by e-mail. The same `exportId` again is the same export. */
export async function requestDataExport(exportId: string): Promise<RequestExportResponse> {
  return requestExportResponseSchema.parse(await apiRequest<unknown>('POST', '/progress/me/export', { exportId }));
}

export async function fetchExportStatus(exportId: string): Promise<ExportStatus> {
  return exportStatusSchema.parse(await apiRequest<unknown>('GET', `/progress/me/exports/${exportId}`));
}
