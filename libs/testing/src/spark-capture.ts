import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sparkUploadGrantSchema } from '@spark/contracts';

export interface SparkCaptureInput {
  bytes: Buffer;
  contentType?: string;
  clientSparkId?: string;
  note?: string;
  timeZone?: string;
  /** When the device took it and sent it (ISO, by its clock); without both the server dates it when it records it. */
  takenAt?: string;
  sentAt?: string;
  /** Runs once the file is in storage, before the capture is recorded (to stop a dependency, say). */
  afterUpload?: () => Promise<void>;
  /**
   * Sends the recording again while it is refused because the client's earlier sparks are still being saved (429),
   * as the app's outbox does with the upload kept; sooner than the app, which waits seconds.
   */
  resendWhileBusy?: boolean;
}

const RESEND_AFTER_MS = 100;

/**
 * A capture as the web app makes it: `POST /api/sparks/uploads` for a signed URL, the file PUT straight to storage,
 * then `POST /api/sparks`. Answers the first response that is not a success, else the recording's.
 */
export async function captureSpark(baseUrl: string, headers: Record<string, string>, input: SparkCaptureInput): Promise<Response> {
  const json = { ...headers, 'content-type': 'application/json' };
  const clientSparkId = input.clientSparkId ?? randomUUID();
  const granted = await fetch(`${baseUrl}/api/sparks/uploads`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ clientSparkId, bytes: input.bytes.length, contentType: input.contentType ?? 'image/png' }),
  });
  if (granted.status !== 201) return granted;
  const grant = sparkUploadGrantSchema.parse(await granted.json());
  const stored = await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(input.bytes) });
  if (!stored.ok) return stored;
  await input.afterUpload?.();
  const record = () =>
    fetch(`${baseUrl}/api/sparks`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        clientSparkId,
        uploadId: grant.uploadId,
        timeZone: input.timeZone ?? 'Europe/Berlin',
        note: input.note,
        takenAt: input.takenAt,
        sentAt: input.sentAt,
      }),
    });
  let recorded = await record();
  while (input.resendWhileBusy && recorded.status === 429) {
    await recorded.body?.cancel();
    await sleep(RESEND_AFTER_MS);
    recorded = await record();
  }
  return recorded;
}
