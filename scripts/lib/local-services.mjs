// Stand-ins for the mail provider and S3 on one machine: maildev (SMTP + a mailbox in the
// browser) and s3rver (S3-compatible storage on disk).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { waitForPort } from './network.mjs';
import { startProcess } from './processes.mjs';

const require = createRequire(import.meta.url);
const binary = (name, relative) => require.resolve(`${name}/${relative}`);

export const S3_BUCKETS = ['sparks', 'log'];
const SPARKS_CORS = fileURLToPath(new URL('../../deploy/s3/cors.xml', import.meta.url));
// Keeps s3rver alive when one key's deletion and another key's upload share a folder (libs/testing/src/s3rver-folders.ts).
const S3RVER_FOLDERS = fileURLToPath(new URL('../../dist/libs/testing/src/s3rver-folders.js', import.meta.url));
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** maildev on `smtpPort` (SMTP) and `webPort` (web UI and REST API, GET /email). */
export async function startMailbox({ smtpPort, webPort, output }) {
  const urls = { smtp: `smtp://127.0.0.1:${smtpPort}`, web: `http://127.0.0.1:${webPort}` };
  const mailbox = startProcess(
    'maildev',
    process.execPath,
    [binary('maildev', 'bin/maildev'), '--smtp', String(smtpPort), '--web', String(webPort), '--ip', '127.0.0.1'],
    { output },
  );
  mailbox.kind = 'infrastructure';
  await waitForPort('maildev SMTP', smtpPort, { process: mailbox, timeoutMs: 30_000 });
  await waitForPort('maildev web', webPort, { process: mailbox, timeoutMs: 30_000 });
  return { urls, origin: 'maildev', process: mailbox };
}

/** s3rver on `port`, storing under `directory`, with the product's buckets created. */
export async function startObjectStorage({ port, directory, output }) {
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(directory, { recursive: true });
  // The sparks bucket takes uploads straight from the browser (deploy/s3/cors.xml).
  const buckets = S3_BUCKETS.flatMap((bucket) => ['--configure-bucket', bucket, ...(bucket === 'sparks' ? [SPARKS_CORS] : [])]);
  const storage = startProcess(
    's3rver',
    process.execPath,
    ['--require', S3RVER_FOLDERS, binary('s3rver', 'bin/s3rver.js'), '-d', directory, '-a', '127.0.0.1', '-p', String(port), '--silent', ...buckets],
    { output },
  );
  storage.kind = 'infrastructure';
  await waitForPort('s3rver', port, { process: storage, timeoutMs: 30_000 });
  return { url, origin: `s3rver (${directory})`, process: storage };
}
