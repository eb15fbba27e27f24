/**
 * The S3 operation an outgoing request performs, read from its method and path, for counting what a process asks of
 * S3. The SDK and ObjectRequests name most operations in the query (`?x-id=PutObject`), but not the POSTs of a bulk
 * delete and of a multipart upload.
 */
export function s3OperationOf(method: string, path: string): string {
  const query = path.split('?')[1] ?? '';
  if (method === 'POST') {
    if (query.startsWith('delete')) return 'DeleteObjects';
    return query.startsWith('uploads') ? 'CreateMultipartUpload' : 'CompleteMultipartUpload';
  }
  return /(?:^|&)x-id=(\w+)/.exec(query)?.[1] ?? `${method} /${path.split('/')[1]}/<key>`;
}
