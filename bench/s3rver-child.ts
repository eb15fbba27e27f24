// A real s3rver (the project's local S3) in a process of its own, so a benchmark's load loop and the storage
// server do not share one event loop. Started with an IPC channel by bench/spark-capture.ts: sends
// { env } once the buckets exist, closes on SIGTERM or when the parent goes away.
import { startTestS3 } from '@spark/testing';

async function main() {
  const s3 = await startTestS3();
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void s3.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.once('disconnect', close);
  process.send?.({ env: s3.env });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
