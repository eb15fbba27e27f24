import type { RecordSparkResponse } from '@spark/contracts';
import { registerAccessTokenSource } from '../../../api/client';
import { uploadSpark } from './client-app-api';

const clientSparkId = '5b0f8a34-3c62-4a57-9d0f-6a1c1a7e2b10';
const userId = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const recorded: RecordSparkResponse = {
  spark: {
    id: '0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a',
    clientSparkId,
    userId,
    sparkType: 'photo',
    fileKey: `${userId}/photo.png`,
    fileType: 'image/png',
    note: null,
    createdAt: '2026-12-01T12:00:00.000Z',
  },
  created: true,
  progress: {
    userId,
    fullName: null,
    transformationGoal: null,
    sparkCount: 1,
    streakCount: 1,
    evolutionNumber: 1,
    evolutionStartDate: '2026-12-01',
    evolutionEndDate: '2027-03-01',
    status: 'active',
    customEvolutionDays: null,
    lastSparkDate: '2026-12-01',
    timeZone: 'UTC',
    restWeekday: null,
    pauseDaysAllowance: 0,
  },
  milestone: { title: 'First spark', description: 'The first of many.' },
};

/** The gateway and storage as the browser meets them: each grant names a new upload; recordings answer in turn. */
function serve(recordingAnswers: { status: number; body: unknown }[]): string[] {
  const calls: string[] = [];
  let grants = 0;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    calls.push(`${init?.method} ${url}`);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url === '/api/sparks/uploads') {
      grants += 1;
      return json(201, { uploadId: `00000000-0000-4000-8000-00000000000${grants}`, url: `https://storage.example/upload-${grants}`, headers: {} });
    }
    const answer = recordingAnswers.shift();
    if (!answer) throw new Error('no more recordings expected');
    return json(answer.status, answer.body);
  };
  // Storage takes the file at once: the page PUTs it with XHR, which reports the upload's progress.
  globalThis.XMLHttpRequest = class {
    status = 0;
    readonly upload: { onprogress?: () => void; onload?: () => void } = {};
    onload?: () => void;
    private url = '';
    open(method: string, url: string) {
      this.url = url;
      calls.push(`${method} ${url}`);
    }
    setRequestHeader() {}
    send() {
      queueMicrotask(() => {
        this.upload.onprogress?.();
        this.upload.onload?.();
        this.status = this.url.startsWith('https://storage.example/') ? 200 : 404;
        this.onload?.();
      });
    }
  } as unknown as typeof XMLHttpRequest;
  return calls;
}

const notFound = { status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'This upload was not found. Please capture your spark again.' } };
const upload = {
  userId,
  clientSparkId,
  file: new Blob(['png'], { type: 'image/png' }),
  fileName: 'photo.png',
  note: '',
  timeZone: 'UTC',
  createdAt: '2026-11-30T23:55:00.000Z',
};

describe('uploadSpark', () => {
  const realFetch = globalThis.fetch;
  beforeAll(() => registerAccessTokenSource({ accessToken: async () => 'token', renewAfterUnauthorized: async () => null }));
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('captures again with a new upload when the server no longer finds the first', async () => {
    const calls = serve([notFound, { status: 201, body: recorded }]);
    await expect(uploadSpark(upload)).resolves.toEqual(recorded);
    expect(calls).toEqual([
      'POST /api/sparks/uploads',
      'PUT https://storage.example/upload-1',
      'POST /api/sparks',
      'POST /api/sparks/uploads',
      'PUT https://storage.example/upload-2',
      'POST /api/sparks',
    ]);
  });

  it('tries the whole capture once more only, and never after another refusal', async () => {
    serve([notFound, notFound]);
    await expect(uploadSpark(upload)).rejects.toMatchObject({ status: 404 });
    const unsupported = { status: 415, body: { statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Only photos and videos can be captured.' } };
    const calls = serve([unsupported]);
    await expect(uploadSpark(upload)).rejects.toMatchObject({ status: 415 });
    expect(calls.filter((call) => call === 'POST /api/sparks')).toHaveLength(1);
  });

  it('records with the upload an earlier try stored, without sending the file again', async () => {
    const calls = serve([{ status: 201, body: recorded }]);
    await expect(uploadSpark({ ...upload, uploadId: '00000000-0000-4000-8000-0000000000aa' })).resolves.toEqual(recorded);
    expect(calls).toEqual(['POST /api/sparks']);
  });

  it('sends the file again when the upload an earlier try stored is gone', async () => {
    const calls = serve([notFound, { status: 201, body: recorded }]);
    await expect(uploadSpark({ ...upload, uploadId: '00000000-0000-4000-8000-0000000000aa' })).resolves.toEqual(recorded);
    expect(calls).toEqual(['POST /api/sparks', 'POST /api/sparks/uploads', 'PUT https://storage.example/upload-1', 'POST /api/sparks']);
  });

  it('notes where the file went before the recording, so a refused recording keeps it for the next try', async () => {
    serve([
      { status: 429, body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Your earlier sparks are still being saved. Please try again in 5 seconds.' } },
    ]);
    const noted: string[] = [];
    await expect(uploadSpark(upload, async (uploadId) => void noted.push(uploadId))).rejects.toMatchObject({ status: 429 });
    expect(noted).toEqual(['00000000-0000-4000-8000-000000000001']);
  });

  it('sends nothing of a capture once the tab is signed in as someone else than its owner', async () => {
    const calls = serve([{ status: 201, body: recorded }]);
    registerAccessTokenSource({ accessToken: async (asUser) => (asUser === 'someone-else' ? 'token' : null), renewAfterUnauthorized: async () => null });
    try {
      await expect(uploadSpark(upload)).rejects.toMatchObject({ status: 401 });
      await expect(uploadSpark({ ...upload, uploadId: '00000000-0000-4000-8000-0000000000aa' })).rejects.toMatchObject({ status: 401 });
      expect(calls).toEqual([]);
    } finally {
      registerAccessTokenSource({ accessToken: async () => 'token', renewAfterUnauthorized: async () => null });
    }
  });
});
