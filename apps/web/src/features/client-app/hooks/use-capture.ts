import { milestoneMessage } from '@spark/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/client';
import { toast } from '../../../ui/toaster';
import { deviceTimeZone, homeQueryKey } from '../api/client-app-api';
import {
  enqueueSpark,
  flushOutbox,
  forgetSpark,
  isRetryable,
  onSparkRefused,
  onSparkUploaded,
  pendingSparks,
  sendAgainSoon,
  sendCapture,
  uploadNoterFor,
} from '../offline/spark-outbox';
import type { PendingSpark } from '../offline/pending-sparks-db';

export type CaptureOutcome = 'uploaded' | 'saved-offline' | 'failed';

const WAITING_OFFLINE = "You're offline. It will upload automatically when you're back online.";
// Online, but Spark could not take it just now (busy, restarting, a connection cut on the way).
const WAITING_FOR_SPARK = 'It could not be sent just now. It will upload automatically in a moment.';

/**
 * Saves the capture on the device first, then uploads it. Offline (or a dropped connection) it
 * stays pending and the outbox uploads it later under the same client id, so it counts once. A device
 * that cannot keep it (its storage full) still uploads it at once, and says so when it cannot.
 */
export function useCapture(userId: string) {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  // A capture the device could not keep, whose upload failed: Spark may have recorded it with the answer lost on the
  // way back, so pressing again with the same file sends it under the same id (and its stored upload) to count once.
  const notKept = useRef<PendingSpark | null>(null);

  useEffect(
    () =>
      onSparkUploaded((result) => {
        const message = milestoneMessage(result.progress.sparkCount);
        toast.success(message.title, { description: message.description });
        void queryClient.invalidateQueries({ queryKey: homeQueryKey });
      }),
    [queryClient],
  );
  useEffect(() => onSparkRefused(showUploadFailed), []);

  async function capture(file: File, note: string): Promise<CaptureOutcome> {
    const again = notKept.current?.file === file ? notKept.current : null;
    notKept.current = null;
    const spark: PendingSpark = {
      clientSparkId: again?.clientSparkId ?? crypto.randomUUID(),
      file,
      fileName: file.name || 'spark',
      note,
      timeZone: deviceTimeZone(),
      userId,
      createdAt: again?.createdAt ?? new Date().toISOString(),
      uploadId: again?.uploadId,
    };
    setUploading(true);
    const kept = await enqueueSpark(spark).then(
      () => true,
      () => false,
    );
    try {
      if (!navigator.onLine) return kept ? savedOnDevice(WAITING_OFFLINE) : neitherKeptNorSent();
      let sending: PendingSpark = spark;
      if (kept && pendingSparks().some((other) => other.clientSparkId !== spark.clientSparkId)) {
        const behindOlder = await sendBehindOlder(spark.clientSparkId);
        if (behindOlder === 'sent-elsewhere') return await sentByAnotherTab();
        if (behindOlder) return behindOlder;
        // An older one could not be sent now: this one is not held back behind it (it may never go through).
        sending = pendingSparks().find((waiting) => waiting.clientSparkId === spark.clientSparkId) ?? spark;
      }
      const noteUpload = kept ? uploadNoterFor(spark.clientSparkId) : async (uploadId: string) => void (spark.uploadId = uploadId);
      const result = await sendCapture(sending, noteUpload, { kept });
      if (!result) return await sentByAnotherTab();
      if (kept) await forgetSpark(spark.clientSparkId);
      const message = milestoneMessage(result.progress.sparkCount);
      toast.success(message.title, { description: message.description });
      await queryClient.invalidateQueries({ queryKey: homeQueryKey });
      return 'uploaded';
    } catch (error) {
      if (isRetryable(error)) {
        if (!kept) {
          notKept.current = spark;
          return neitherKeptNorSent();
        }
        sendAgainSoon();
        return savedOnDevice(navigator.onLine ? WAITING_FOR_SPARK : WAITING_OFFLINE);
      }
      if (kept) await forgetSpark(spark.clientSparkId);
      showUploadFailed(error);
      return 'failed';
    } finally {
      setUploading(false);
    }
  }

  /**
   * Another tab of this browser sent the capture, and showed its milestone there; the count it reached is not known
   * here (a home read back now may be stale or count other captures), so only that it went.
   */
  async function sentByAnotherTab(): Promise<CaptureOutcome> {
    toast.success('Spark captured!', { description: 'Another Spark tab in this browser sent it.' });
    await queryClient.invalidateQueries({ queryKey: homeQueryKey });
    return 'uploaded';
  }

  return { capture, uploading };
}

/**
 * A refusal that trying again cannot fix (a full storage, a file too large or of the wrong type) shows
 * the server's own words; anything else the general upload failure (docs/product.md §8).
 */
function showUploadFailed(error: unknown): void {
  const explained = error instanceof ApiError && (error.status === 413 || error.status === 415);
  toast.error('Upload failed', { description: explained ? error.message : 'There was an error capturing your spark. Please try again.' });
}

/**
 * Sparks are recorded oldest first, so a day still waiting on the device counts in the streak before a later one (a
 * later day recorded first would end the streak, and the earlier one could not mend it): the outbox sends this capture
 * after those, its toasts from the outbox's listeners. Undefined when it is still waiting because an older one could
 * not be sent; 'sent-elsewhere' when another tab's outbox sent it while this one waited for its lock.
 */
export async function sendBehindOlder(clientSparkId: string): Promise<CaptureOutcome | 'sent-elsewhere' | undefined> {
  let uploaded = false;
  let refused = false;
  const stopWatchingUploads = onSparkUploaded((result) => {
    if (result.spark.clientSparkId === clientSparkId) uploaded = true;
  });
  const stopWatchingRefusals = onSparkRefused((_error, refusedId) => {
    if (refusedId === clientSparkId) refused = true;
  });
  try {
    await flushOutbox();
  } finally {
    stopWatchingUploads();
    stopWatchingRefusals();
  }
  if (uploaded) return 'uploaded';
  if (pendingSparks().some((waiting) => waiting.clientSparkId === clientSparkId)) return undefined;
  // Refused for good, and the outbox said why.
  if (refused) return 'failed';
  // Gone from the device without a word here: an older one's refusal is no answer about this one.
  return 'sent-elsewhere';
}

/** The upload did not go through, and the device could not keep the capture to send it later. */
function neitherKeptNorSent(): CaptureOutcome {
  toast.error('Upload failed', { description: 'This device has no room to keep your spark until it can be sent. Please try again when you are online.' });
  return 'failed';
}

/** The capture is kept on the device and the outbox will send it; `description` says why it waits. */
function savedOnDevice(description: string): CaptureOutcome {
  toast('Spark saved on this device', { description });
  return 'saved-offline';
}
