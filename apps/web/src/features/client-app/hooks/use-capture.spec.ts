import type { RecordSparkResponse, Session } from '@spark/contracts';
import { ApiError } from '../../../api/client';
import { endSession, startSession } from '../../session/session-store';
import { uploadSpark } from '../api/client-app-api';
import { deletePending, type PendingSpark } from '../offline/pending-sparks-db';

// The device's list of waiting captures, which every tab of the browser shares: a Map here, as Node has no IndexedDB.
jest.mock('../offline/pending-sparks-db', () => {
  const waiting = new Map<string, PendingSpark>();
  return {
    savePending: async (spark: PendingSpark) => void waiting.set(spark.clientSparkId, spark),
    deletePending: async (clientSparkId: string) => void waiting.delete(clientSparkId),
    noteStoredUpload: async () => undefined,
    listPending: async () => [...waiting.values()],
    readPending: async (clientSparkId: string) => waiting.get(clientSparkId),
  };
});
jest.mock('../api/client-app-api', () => ({ ...jest.requireActual('../api/client-app-api'), uploadSpark: jest.fn() }));

// The outbox listens for the browser's `online` event as it loads, so each test loads it after these stand in for the
// browser's. Without Web Locks every lock is had at once: what the other tab does happens between this tab's steps.
Object.assign(globalThis, { window: new EventTarget(), navigator: { onLine: true } });
const outbox = () => import('../offline/spark-outbox');
const capture = () => import('./use-capture');

const userId = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const upload = jest.mocked(uploadSpark);

const captured = (clientSparkId: string, createdAt: string): PendingSpark => ({
  userId,
  clientSparkId,
  file: new Blob(['photo']),
  fileName: 'photo.png',
  note: '',
  timeZone: 'UTC',
  createdAt,
});
const older = captured('0e2d9c7a-8c3f-4d1e-9a6b-2f4e5d6c7b8a', '2026-12-01T09:00:00.000Z');
const latest = captured('5b0f8a34-3c62-4a57-9d0f-6a1c1a7e2b10', '2026-12-01T12:00:00.000Z');

const recorded = (spark: PendingSpark) => ({ spark: { clientSparkId: spark.clientSparkId }, progress: { sparkCount: 1 } }) as RecordSparkResponse;
const tooLarge = new ApiError(413, 'PAYLOAD_TOO_LARGE', 'This file is too large.');

describe('a capture sent while another tab of the browser sends what waits on the device', () => {
  beforeAll(async () => {
    startSession({ access_token: 'token', expires_in: 3600, user: { id: userId } } as Session);
    await (await outbox()).startOutbox(userId);
  });
  afterAll(() => endSession());
  beforeEach(async () => {
    upload.mockReset().mockImplementation(async (spark) => recorded(spark));
    await (await outbox()).forgetSparksOf(userId);
  });

  it('is sent, not refused, when the other tab sent it while this one waited behind an older capture', async () => {
    const { enqueueSpark } = await outbox();
    await enqueueSpark(older);
    await enqueueSpark(latest);
    // The other tab's pass took both while this tab's waited for their locks.
    await deletePending(older.clientSparkId);
    await deletePending(latest.clientSparkId);

    await expect((await capture()).sendBehindOlder(latest.clientSparkId)).resolves.toBe('sent-elsewhere');
    expect(upload).not.toHaveBeenCalled();
  });

  it('is sent, not refused, when the older capture is the one refused here', async () => {
    const { enqueueSpark } = await outbox();
    await enqueueSpark(older);
    await enqueueSpark(latest);
    upload.mockImplementation(async () => {
      // The other tab sends the latest while the server turns the older one down here.
      await deletePending(latest.clientSparkId);
      throw tooLarge;
    });

    await expect((await capture()).sendBehindOlder(latest.clientSparkId)).resolves.toBe('sent-elsewhere');
    expect(upload.mock.calls.map(([spark]) => spark.clientSparkId)).toEqual([older.clientSparkId]);
  });

  it('is refused when the server turned it down here', async () => {
    const { enqueueSpark } = await outbox();
    await enqueueSpark(older);
    await enqueueSpark(latest);
    upload.mockImplementation(async (spark) => {
      if (spark.clientSparkId === latest.clientSparkId) throw tooLarge;
      return recorded(spark);
    });

    await expect((await capture()).sendBehindOlder(latest.clientSparkId)).resolves.toBe('failed');
  });

  it('is not sent again by the dialog once the other tab sent it', async () => {
    const { enqueueSpark, sendCapture } = await outbox();
    await enqueueSpark(latest);
    await deletePending(latest.clientSparkId);

    await expect(sendCapture(latest, undefined, { kept: true })).resolves.toBeUndefined();
    expect(upload).not.toHaveBeenCalled();
  });

  it('is sent by the dialog when the device could not keep it', async () => {
    const { sendCapture } = await outbox();

    await expect(sendCapture(latest, undefined, { kept: false })).resolves.toEqual(recorded(latest));
    expect(upload).toHaveBeenCalledTimes(1);
  });
});
