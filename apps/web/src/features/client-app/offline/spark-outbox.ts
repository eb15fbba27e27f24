import type { RecordSparkResponse } from '@spark/contracts';
import { ApiError } from '../../../api/client';
import { withBrowserLock } from '../../../lib/browser-lock';
import { currentSessionState, subscribeToSession } from '../../session/session-store';
import { type UploadNoter, uploadSpark } from '../api/client-app-api';
import { deletePending, listPending, noteStoredUpload, type PendingSpark, readPending, savePending } from './pending-sparks-db';

// Back-off between automatic retries: 2 s doubling to 1 min, reset on success or when back online.
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;

type Listener = () => void;
type UploadedListener = (result: RecordSparkResponse) => void;
type RefusedListener = (error: unknown, clientSparkId: string) => void;

let pending: PendingSpark[] = [];
let retryDelayMs = FIRST_RETRY_MS;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let flushing: Promise<void> | null = null;
let currentUserId: string | null = null;
const listeners = new Set<Listener>();
const uploadedListeners = new Set<UploadedListener>();
const refusedListeners = new Set<RefusedListener>();

const notify = () => listeners.forEach((listener) => listener());

// Captures on their way right now: the capture dialog's own try and the outbox's pass never send one twice at once
// (two grants and two uploads of one file, two toasts).
const onTheirWay = new Set<string>();

/**
 * Runs `work` holding the capture's lock across this browser's tabs: two tabs of the app (or the installed app and a
 * tab) each read the device's list of waiting captures, and each would otherwise send them all.
 */
const withCaptureLock = <T>(clientSparkId: string, work: () => Promise<T>): Promise<T> => withBrowserLock(`spark-capture:${clientSparkId}`, work);

async function send(spark: PendingSpark, noteUpload?: UploadNoter): Promise<RecordSparkResponse> {
  onTheirWay.add(spark.clientSparkId);
  try {
    return await uploadSpark(spark, noteUpload);
  } finally {
    onTheirWay.delete(spark.clientSparkId);
  }
}

/**
 * Sends one capture, as the dialog does at once or the outbox later: this tab's outbox skips it while this runs, and
 * another tab's waits for it and then finds it sent. Undefined for a capture `kept` on the device that no longer waits
 * there: another tab sent it while this one waited for its lock, and sending it again would upload its file twice.
 */
export const sendCapture = (spark: PendingSpark, noteUpload?: UploadNoter, { kept = false } = {}): Promise<RecordSparkResponse | undefined> =>
  withCaptureLock(spark.clientSparkId, async () => {
    if (kept && !(await readPending(spark.clientSparkId))) return undefined;
    return send(spark, noteUpload);
  });

/**
 * Waiting again makes sense for a lost connection, an expired session, a server hiccup, or an upload the server did
 * not find even after a second one (its replicas of two versions sharing a capture during a deploy): the file is
 * still here, and a later try captures it again.
 */
export const isRetryable = (error: unknown) =>
  !(error instanceof ApiError) ||
  error.status === 0 ||
  error.status === 401 ||
  error.status === 404 ||
  error.status === 408 ||
  error.status === 429 ||
  error.status >= 500;

async function reload(): Promise<void> {
  pending = (await listPending()).filter((spark) => spark.userId === currentUserId);
  notify();
}

function scheduleRetry(): void {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void flushOutbox(), retryDelayMs);
  retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_MS);
}

/**
 * Uploads every pending spark of the signed-in user, oldest first; the server dedupes by client id. A capture kept
 * while the pass runs is sent by the same pass once it is through the older ones: a retry timed for it meanwhile
 * found the pass running and did nothing.
 */
export function flushOutbox(): Promise<void> {
  flushing ??= (async () => {
    const tried = new Set<string>();
    let stopped = false;
    while (!stopped) {
      const untried = pending.filter((spark) => !tried.has(spark.clientSparkId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      if (untried.length === 0) break;
      for (const spark of untried) {
        tried.add(spark.clientSparkId);
        stopped = !(await sendOne(spark));
        if (stopped) break;
      }
      await reload();
    }
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

/** Sends one waiting spark; false when the pass should stop here (not its owner's session, or a failure worth a retry). */
async function sendOne(spark: PendingSpark): Promise<boolean> {
  // Only ever under its owner's session: the tab may have been signed out, or in as someone else, since the list was read.
  if (currentSessionState().session?.user.id !== spark.userId) return false;
  if (onTheirWay.has(spark.clientSparkId)) return true;
  return withCaptureLock(spark.clientSparkId, async () => {
    // Another tab may have sent or dropped it since this tab read the list, while this one waited for the lock.
    const waiting = await readPending(spark.clientSparkId);
    if (!waiting) return true;
    try {
      const result = await send(waiting, uploadNoterFor(waiting.clientSparkId));
      await deletePending(waiting.clientSparkId);
      retryDelayMs = FIRST_RETRY_MS;
      uploadedListeners.forEach((listener) => listener(result));
    } catch (error) {
      if (isRetryable(error)) {
        scheduleRetry();
        return false;
      }
      // The server will never take this file (its type, its size, a full storage): keeping it would
      // block the queue and retry forever, so it goes, and the person is told why.
      await deletePending(waiting.clientSparkId);
      refusedListeners.forEach((listener) => listener(error, waiting.clientSparkId));
    }
    return true;
  });
}

/**
 * A kept capture the server could not take just now: sent after the retry delay, or sooner by a pass already running,
 * which goes on to the captures kept while it ran.
 */
export const sendAgainSoon = scheduleRetry;

/** Keeps a capture on the device before any upload attempt, so it survives a reload or crash. */
export async function enqueueSpark(spark: PendingSpark): Promise<void> {
  await savePending(spark);
  await reload();
}

/** Notes where a waiting capture's file went, so the outbox's next try records it without sending the file again. */
export const uploadNoterFor =
  (clientSparkId: string): UploadNoter =>
  async (uploadId) => {
    await noteStoredUpload(clientSparkId, uploadId);
    await reload();
  };

export async function forgetSpark(clientSparkId: string): Promise<void> {
  await deletePending(clientSparkId);
  await reload();
}

/** Starts the outbox for a user: loads what waits from earlier visits and uploads it when online. */
export async function startOutbox(userId: string): Promise<void> {
  currentUserId = userId;
  await reload();
  if (navigator.onLine && pending.length) void flushOutbox();
}

// The session of the outbox's owner restored after the app opened without it (offline, or Spark out of reach): what
// waited meanwhile goes now, after a pass under way, which may have stopped already for want of that session.
subscribeToSession(() => {
  if (pending.length && currentUserId !== null && currentSessionState().session?.user.id === currentUserId)
    void (flushing ?? Promise.resolve()).then(flushOutbox);
});

window.addEventListener('online', () => {
  retryDelayMs = FIRST_RETRY_MS;
  if (pending.length) void flushOutbox();
});

export const pendingSparks = (): PendingSpark[] => pending;

export function subscribeToOutbox(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Called for each spark this tab's outbox had refused for good (the error says why), with its client id; it is no
 * longer pending. Another tab's refusals are told in that tab.
 */
export function onSparkRefused(listener: RefusedListener): () => void {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/** Called for each spark the outbox delivered in the background. */
export function onSparkUploaded(listener: UploadedListener): () => void {
  uploadedListeners.add(listener);
  return () => uploadedListeners.delete(listener);
}

/** Drops every capture of `userId` waiting on this device: their account is deleted, so nobody will upload them. */
export async function forgetSparksOf(userId: string): Promise<void> {
  const theirs = (await listPending()).filter((spark) => spark.userId === userId);
  for (const spark of theirs) await deletePending(spark.clientSparkId);
  await reload();
}
