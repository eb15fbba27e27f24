import type { SparkUpload } from '../api/client-app-api';

/** A capture not yet confirmed by the server, kept with its file so a reload or closed tab loses nothing. */
export type PendingSpark = SparkUpload;

const DB_NAME = 'spark-client-app';
const SPARKS = 'pending-sparks';
// Apart from the sparks, so noting an upload never writes a capture's file again.
const UPLOADS = 'stored-uploads';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 2);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(SPARKS)) db.createObjectStore(SPARKS, { keyPath: 'clientSparkId' });
      if (!db.objectStoreNames.contains(UPLOADS)) db.createObjectStore(UPLOADS, { keyPath: 'clientSparkId' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  });
}

/** Runs `work` in one transaction over both stores; resolves with what it returns once the transaction commits. */
async function inStores<T>(mode: IDBTransactionMode, work: (sparks: IDBObjectStore, uploads: IDBObjectStore) => () => T): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction([SPARKS, UPLOADS], mode);
      const result = work(transaction.objectStore(SPARKS), transaction.objectStore(UPLOADS));
      transaction.oncomplete = () => resolve(result());
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
      // A full disk aborts the transaction when it commits, without an error event on the request.
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB write aborted'));
    });
  } finally {
    db.close();
  }
}

const nothing = () => undefined;

export const savePending = (spark: PendingSpark) =>
  inStores('readwrite', (sparks) => {
    sparks.put(spark);
    return nothing;
  });

export const deletePending = (clientSparkId: string) =>
  inStores('readwrite', (sparks, uploads) => {
    sparks.delete(clientSparkId);
    uploads.delete(clientSparkId);
    return nothing;
  });

/**
 * Notes that the capture's file is in storage under `uploadId`, so a later try records it without sending the file
 * again; only while the capture still waits, so a try finishing late never brings back one already sent or forgotten.
 */
export const noteStoredUpload = (clientSparkId: string, uploadId: string) =>
  inStores('readwrite', (sparks, uploads) => {
    const waiting = sparks.count(clientSparkId);
    waiting.onsuccess = () => {
      if (waiting.result > 0) uploads.put({ clientSparkId, uploadId });
    };
    return nothing;
  });

/** Every waiting capture, with the upload an earlier try stored its file in, when there is one. */
export const listPending = (): Promise<PendingSpark[]> =>
  inStores('readonly', (sparks, uploads) => {
    const waiting = sparks.getAll() as IDBRequest<PendingSpark[]>;
    const stored = uploads.getAll() as IDBRequest<{ clientSparkId: string; uploadId: string }[]>;
    return () => {
      const uploadIds = new Map(stored.result.map(({ clientSparkId, uploadId }) => [clientSparkId, uploadId]));
      return waiting.result.map((spark) => ({ ...spark, uploadId: uploadIds.get(spark.clientSparkId) }));
    };
  });

/** One waiting capture as `listPending` gives it, or undefined once it was sent or dropped (by this tab or another). */
export const readPending = (clientSparkId: string): Promise<PendingSpark | undefined> =>
  inStores('readonly', (sparks, uploads) => {
    const waiting = sparks.get(clientSparkId) as IDBRequest<PendingSpark | undefined>;
    const stored = uploads.get(clientSparkId) as IDBRequest<{ uploadId: string } | undefined>;
    return () => waiting.result && { ...waiting.result, uploadId: stored.result?.uploadId };
  });
