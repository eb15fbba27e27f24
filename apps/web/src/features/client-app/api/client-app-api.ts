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
} from '@spark/contracts';
import { apiRequest } from '../../../api/client';

export const homeQueryKey = ['progress', 'home'] as const;

export async function fetchHome(): Promise<HomeResponse> {
  return homeResponseSchema.parse(await apiRequest<unknown>('GET', '/progress/me'));
}

export interface SparkUpload {
  clientSparkId: string;
  file: Blob;
  fileName: string;
  note: string;
  timeZone: string;
}

/** Fields first, then the file: the gateway streams the file and needs the fields before it. */
export async function uploadSpark(upload: SparkUpload): Promise<RecordSparkResponse> {
  const form = new FormData();
  form.append('clientSparkId', upload.clientSparkId);
  form.append('timeZone', upload.timeZone);
  if (upload.note.trim()) form.append('note', upload.note);
  form.append('file', upload.file, upload.fileName);
  return recordSparkResponseSchema.parse(await apiRequest<unknown>('POST', '/sparks', form));
}

export const deviceTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export async function takePauseDay(date: string): Promise<RestDays> {
  return restDaysSchema.parse(await apiRequest<unknown>('POST', '/progress/me/pause-days', { date }));
}

export async function setRestDay(restWeekday: number | null): Promise<RestDays> {
  return restDaysSchema.parse(await apiRequest<unknown>('PUT', '/progress/me/rest-day', { restWeekday }));
}

/** Queues "Download my data": the archive's link arrives by e-mail. */
export async function requestDataExport(): Promise<RequestExportResponse> {
  return requestExportResponseSchema.parse(await apiRequest<unknown>('POST', '/progress/me/export'));
}

export async function fetchExportStatus(exportId: string): Promise<ExportStatus> {
  return exportStatusSchema.parse(await apiRequest<unknown>('GET', `/progress/me/exports/${exportId}`));
}
