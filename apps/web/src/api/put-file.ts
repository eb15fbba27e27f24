import { answerDeadlineMs, uploadStallMs } from './deadlines';

/** Thrown when a file's upload stops moving, or its answer does not come after the last byte left. */
export class UploadStalledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadStalledError';
  }
}

/**
 * PUTs a file to a signed storage URL and resolves with the answer's status. A slow link may take as long as it needs
 * while bytes keep leaving; the upload is given up only when none has left for `uploadStallMs`, or when the answer has
 * not come within the answer's deadline after the last one. fetch cannot see an upload's progress, so this uses XHR.
 */
export function putFile(url: string, headers: Record<string, string>, body: Blob): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUpIn = (ms: number, reason: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        request.abort();
        reject(new UploadStalledError(reason));
      }, ms);
    };
    request.upload.onprogress = () => giveUpIn(uploadStallMs(), 'The upload stopped moving');
    request.upload.onload = () => giveUpIn(answerDeadlineMs(), 'Storage did not answer in time');
    request.onload = () => {
      clearTimeout(timer);
      resolve(request.status);
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(new Error('The upload could not reach storage'));
    };
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    giveUpIn(uploadStallMs(), 'The upload did not start');
    request.send(body);
  });
}
