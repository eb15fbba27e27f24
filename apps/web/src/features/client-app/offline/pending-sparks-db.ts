import type { SparkUpload } from '../api/client-app-api';

/** A capture not yet confirmed by the server, kept with its file so a reload or closed tab loses nothing. */
export interface PendingSpark extends SparkUpload {
  userId: string;
}

const DB_NAME = 'spark-client-app';
const STORE = 'pending-sparks';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'clientSparkId' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  });
}

async function inStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
      // A full disk aborts the transaction when it commits, without an error event on the request.
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB write aborted'));
    });
  } finally {
    db.close();
  }
}

export const savePending = (spark: PendingSpark) => inStore('readwrite', (store) => store.put(spark)).then(() => undefined);
export const deletePending = (clientSparkId: string) => inStore('readwrite', (store) => store.delete(clientSparkId));
export const listPending = (): Promise<PendingSpark[]> => inStore('readonly', (store) => store.getAll() as IDBRequest<PendingSpark[]>);
