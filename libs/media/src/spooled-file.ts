import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes a stream to a private temporary file as it arrives (so a slow upload holds no memory), hands
 * the file's path to `use`, and removes the file afterwards, whatever happened.
 */
export async function withSpooledFile<T>(body: AsyncIterable<Buffer>, use: (path: string) => Promise<T>): Promise<T> {
  const path = join(tmpdir(), `spark-upload-${randomUUID()}`);
  try {
    const file = await open(path, 'wx', 0o600);
    try {
      for await (const chunk of body) await file.write(chunk);
    } finally {
      await file.close();
    }
    return await use(path);
  } finally {
    await rm(path, { force: true });
  }
}
