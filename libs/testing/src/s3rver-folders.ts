// Loaded before s3rver starts: in this library's startTestS3, and preloaded (`node --require`) into the s3rver that
// `npm start` runs. s3rver stores a key's object as a file in one folder per key prefix and, on a deletion, removes
// the folders left empty. An upload into that folder at the same moment (a client's next capture while their
// previous upload is deleted) then opens its file in a removed folder, and the stream's unhandled error ends the
// whole server. Real S3 has no folders, and s3rver builds its listings from object files alone, so keeping the empty
// folders changes nothing a client sees.
import { unlink } from 'node:fs/promises';
import FilesystemStore from 's3rver/lib/stores/filesystem';

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

FilesystemStore.prototype.deleteObject = async function deleteObjectKeepingFolders(bucket, key) {
  const files = (['object', 'object.md5', 'metadata.json'] as const).map((resource) => this.getResourcePath(bucket, key, resource));
  await Promise.all(files.map((file) => unlink(file).catch(ignoreMissing)));
};
