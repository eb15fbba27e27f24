import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { repositoryFile } from './repository-files';
import { startTestS3 } from './s3-server';
import { freePort } from './wait';

interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

async function inThisProcess(): Promise<LocalS3> {
  const s3 = await startTestS3();
  return { endpoint: s3.config.S3_ENDPOINT, close: () => s3.close() };
}

/** s3rver started by the same function `npm start` uses, in a launcher process of its own. */
async function asNpmStartRunsIt(): Promise<LocalS3> {
  const [port, directory] = await Promise.all([freePort(), mkdtemp(join(tmpdir(), 'spark-s3-'))]);
  const modules = (name: string) => JSON.stringify(pathToFileURL(repositoryFile(`scripts/lib/${name}`)).href);
  const launcher = `
    import { startObjectStorage } from ${modules('local-services.mjs')};
    import { stopProcess } from ${modules('processes.mjs')};
    const storage = await startObjectStorage({ port: ${port}, directory: ${JSON.stringify(join(directory, 'data'))}, output: { directory: ${JSON.stringify(join(directory, 'logs'))} } });
    process.once('SIGTERM', () => stopProcess(storage).then(() => process.exit(0)));
    console.log('ready');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', launcher], { stdio: ['ignore', 'pipe', 'inherit'] });
  const started = await Promise.race([
    once(createInterface({ input: child.stdout }), 'line').then(([line]) => String(line)),
    once(child, 'exit').then(([code]) => `exit code ${String(code)}`),
  ]);
  if (started !== 'ready') throw new Error(`the launcher did not start s3rver: ${started}`);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      await rm(directory, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['in a test (startTestS3)', inThisProcess],
  ['as `npm start` runs it', asNpmStartRunsIt],
])('the local S3 (s3rver), %s', (_where, start) => {
  let s3: LocalS3;
  let client: S3Client;

  beforeAll(async () => {
    s3 = await start();
    client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  });
  afterAll(async () => {
    client.destroy();
    await s3.close();
  });

  const put = (key: string) => client.send(new PutObjectCommand({ Bucket: 'sparks', Key: key, Body: Buffer.alloc(2048, 1) }));
  const remove = (key: string) => client.send(new DeleteObjectCommand({ Bucket: 'sparks', Key: key }));

  // A client's capture can upload while the upload of their previous capture is being deleted, in one folder.
  it("keeps serving while one key's deletion and another key's upload overlap in the same folder", async () => {
    const folders = Array.from({ length: 8 }, (_, index) => `incoming/user-${index}`);
    await Promise.all(folders.map((folder) => put(`${folder}/0`)));
    for (let round = 1; round <= 60; round += 1) {
      // Each folder holds one object; its deletion would leave the folder empty as the next upload arrives.
      await Promise.all(folders.flatMap((folder) => [remove(`${folder}/${round - 1}`), put(`${folder}/${round}`)]));
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'sparks', Prefix: 'incoming/' }));
    expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual(folders.map((folder) => `${folder}/60`).sort());
  });
});
