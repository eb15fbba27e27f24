import { randomBytes, randomUUID } from 'node:crypto';
import {
  ditlPresentationResponseSchema,
  ditlStatusResponseSchema,
  errorBodySchema,
  exportStatusSchema,
  QUEUES,
  requestExportResponseSchema,
} from '@spark/contracts';
import { developmentSigningKeys } from '@spark/config';
import { signedExportGrant } from '@spark/messaging';
import { JobQueues } from '@spark/jobs';
import { ObjectStorage } from '@spark/storage';
import { eventually, insertProgress, lockWaiters, onboardingAnswers, TINY_PNG, captureSpark } from '@spark/testing';
import { Client } from 'pg';
import { Entry, fromBuffer, type ZipFile } from 'yauzl';
import { createSignedInUser, requestGeneration, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

type Person = { id: string; email: string; token: string };

/** Every entry of a ZIP, read back with a reader independent of the one that wrote it. */
async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        void stream.toArray().then((chunks: Buffer[]) => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          file.readEntry();
        }, reject);
      });
    });
    file.once('end', resolve).once('error', reject);
    file.readEntry();
  });
  return entries;
}

/** CSV rows (after the header) of an export file, each field unquoted; a quoted field may hold line breaks. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [[]];
  for (const [, field, end] of text.matchAll(/"((?:[^"]|"")*)"(,|\r\n)/g)) {
    rows[rows.length - 1].push(field.replace(/""/g, '"'));
    if (end === '\r\n') rows.push([]);
  }
  return rows.slice(1, -1);
}

const LINK_SECONDS = 6;
// BullMQ's default exponential, which exports had before their own capped back-off, gave up after this many attempts.
const ATTEMPTS_THE_OLD_BUDGET_HAD = 8;
const EARLIER_ANSWERS = onboardingAnswers({ firstName: 'Maya', typicalDay: 'Night shifts at the harbour, asleep by nine in the morning.' });

/** The smallest MP4 the upload accepts: an `ftyp` box, then `mdat` holding `payload`. */
function movieOf(payload: Buffer): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.alloc(12)]);
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(payload.length + 8);
  mdatHeader.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdatHeader, payload]);
}

describe('data export: a ZIP of everything about the client, e-mailed as a link', () => {
  let stack: InProcessStack;
  let db: Client;
  let client: Person;
  let coach: Person;
  let admin: Person;
  let storage: ObjectStorage;
  let generationId: string;
  let earlierGenerationId: string;

  const call = (method: string, path: string, person: Person) =>
    fetch(`${stack.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${person.token}` } });
  const capture = async (person: Person, file: Buffer, type: string, note: string) => {
    const response = await captureSpark(
      stack.baseUrl,
      { authorization: `Bearer ${person.token}` },
      { bytes: file, contentType: type, timeZone: 'Europe/Stockholm', note },
    );
    expect(response.status).toBe(201);
  };
  const exportMail = async (email: string, count: number) => {
    const mail = await eventually(
      () => stack.smtp.messages.filter((sent) => sent.to.includes(email) && sent.subject === 'Your Spark data is ready to download')[count - 1],
      30_000,
      `export e-mail ${count} to ${email}`,
    );
    const link = /Download: (\S+)/.exec(mail.text)?.[1];
    const expiresAt = /works until (.+?)\. After that/.exec(mail.text)?.[1];
    if (!link || !expiresAt) throw new Error('the export e-mail has no link or expiry');
    return { link, expiresAt: new Date(expiresAt) };
  };

  beforeAll(async () => {
    stack = await startInProcessStack({
      withNotifier: true,
      env: { JWT_SECRET: TEST_JWT_SECRET, EXPORT_LINK_SECONDS: String(LINK_SECONDS), EXPORT_RETRY_FIRST_MS: '20', EXPORT_RETRY_MAX_MS: '80' },
    });
    storage = new ObjectStorage(stack.s3.config);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    client = await createSignedInUser(db, 'maya@spark.test');
    coach = await createSignedInUser(db, 'coach@spark.test', 'coach');
    admin = await createSignedInUser(db, 'admin@spark.test', 'admin');
    await insertProgress(db, {
      userId: client.id,
      email: client.email,
      fullName: 'Maya Lindqvist',
      goal: 'Run a half marathon',
      timeZone: 'Europe/Stockholm',
      daysIn: 3,
    });
    await db.query(`INSERT INTO progress.onboarding_data (user_id, data) VALUES ($1, $2)`, [client.id, { challenge: 'Evenings, "after work", slip away' }]);
    await db.query(`INSERT INTO progress.coach_notes (user_id, coach_id, message) VALUES ($1, $2, 'Proud of your week, Maya')`, [client.id, coach.id]);
    await db.query(`INSERT INTO progress.coach_private_notes (user_id, coach_id, note) VALUES ($1, $2, 'PRIVATE: ask about her knee')`, [client.id, coach.id]);
    await db.query(`INSERT INTO progress.pause_days (user_id, pause_date) VALUES ($1, current_date + 1)`, [client.id]);
    await capture(client, TINY_PNG, 'image/png', 'Morning run, 5 km, "easy"');
    await capture(client, movieOf(randomBytes(300_000)), 'video/mp4', 'Training plan\nweek 1');
    await capture(client, TINY_PNG, 'image/png', '');
    // Two finished Days in the Life: the earlier one is hers as much as the newest.
    const completedGeneration = async (answers: ReturnType<typeof onboardingAnswers>) => {
      const id = await requestGeneration(stack.baseUrl, client.token, answers);
      await eventually(
        async () => ditlStatusResponseSchema.parse(await (await call('GET', `/api/ditl/generations/${id}`, client)).json()).status === 'completed',
        30_000,
        'the DITL',
      );
      return id;
    };
    earlierGenerationId = await completedGeneration(EARLIER_ANSWERS);
    generationId = await completedGeneration(onboardingAnswers({ firstName: 'Maya' }));
    // What she told Spark before she was a client, matched by her address: her /interest lead and her /donate entry.
    await db.query(
      `INSERT INTO leads.leads (id, email, role, full_name, company, interest, primary_challenge, approval_status, user_created)
       VALUES ($1, $2, 'client', 'Maya Lindqvist', 'Lindqvist Rowing AB', 'Coaching for my first half marathon', 'consistency', 'approved', true)`,
      [randomUUID(), client.email],
    );
    const investorId = randomUUID();
    await db.query(`INSERT INTO investor.investors (id, email, interest) VALUES ($1, $2, 'I would back a habit app that my rowing club uses')`, [
      investorId,
      client.email,
    ]);
    const campaignId = randomUUID();
    await db.query(`INSERT INTO investor.campaigns (id, subject, body) VALUES ($1, 'Spark raises its seed round', 'Dear investor')`, [campaignId]);
    await db.query(`INSERT INTO investor.campaign_deliveries (id, campaign_id, investor_id, email, status) VALUES ($1, $2, $3, $4, 'sent')`, [
      randomUUID(),
      campaignId,
      investorId,
      client.email,
    ]);
    await db.query(
      `INSERT INTO progress.reminder_settings (user_id, enabled, local_time, quiet_start, quiet_end, push_subscription, unsubscribe_token, next_due_at)
       VALUES ($1, true, '07:45', '22:00', '06:30', $2, 'UNSUBSCRIBE-TOKEN-not-for-the-archive', now() + interval '1 day')`,
      [client.id, { endpoint: 'https://fcm.googleapis.com/fcm/send/maya-phone', keys: { p256dh: 'PUSH-P256DH-secret', auth: 'PUSH-AUTH-secret' } }],
    );
  }, 90_000);
  afterAll(async () => {
    await storage?.close();
    await db?.end();
    await stack?.stop();
  });

  it('mails the client a link to a ZIP whose contents match the database and S3, and the link stops working after it expires', async () => {
    const response = await call('POST', '/api/progress/me/export', client);
    expect(response.status).toBe(202);
    const requested = requestExportResponseSchema.parse(await response.json());
    const storedBytes = (await db.query(`SELECT stored_bytes::float8 AS bytes FROM progress.user_progress WHERE user_id = $1`, [client.id])).rows[0]
      .bytes as number;
    expect(requested).toEqual({ queued: true, exportId: expect.any(String), estimatedBytes: storedBytes });
    const { link, expiresAt } = await exportMail(client.email, 1);
    // The export worker counts what it finishes, the per-minute figure the "workers stuck" alert reads.
    await eventually(
      async () => Number(await stack.redis.hget(`${stack.env.BUS_PREFIX}:bull:export:metrics:completed`, 'count')) > 0 || undefined,
      10_000,
      'the finished export counted',
    );

    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('spark-data.zip');
    const entries = await unzip(Buffer.from(await download.arrayBuffer()));

    const sparks = (await db.query(`SELECT id, file_key, note, local_date::text FROM progress.sparks WHERE user_id = $1 ORDER BY created_at, id`, [client.id]))
      .rows as { id: string; file_key: string; note: string | null; local_date: string }[];
    expect(sparks).toHaveLength(3);
    const sparkRows = csvRows(entries.get('sparks.csv')?.toString('utf8') ?? '');
    expect(sparkRows.map((row) => row[0])).toEqual(sparks.map((spark) => spark.id));
    // The day each counted for in the streak, then its type, file type and note.
    expect(sparkRows.map((row) => row[2])).toEqual(sparks.map((spark) => spark.local_date));
    expect(sparkRows.map((row) => row[5])).toEqual(sparks.map((spark) => spark.note ?? ''));
    const sparksJson = JSON.parse(entries.get('sparks.json')?.toString('utf8') ?? '[]') as { id: string; file: string }[];
    expect(sparksJson.map((row) => row.id)).toEqual(sparks.map((spark) => spark.id));
    for (const [index, spark] of sparks.entries()) {
      const stored = Buffer.concat(await (await storage.getStream(spark.file_key)).toArray());
      expect(entries.get(sparksJson[index].file)?.equals(stored)).toBe(true);
    }

    expect(JSON.parse(entries.get('profile.json')?.toString('utf8') ?? '{}')).toMatchObject({
      account: { id: client.id, email: client.email },
      progress: { full_name: 'Maya Lindqvist', transformation_goal: 'Run a half marathon', time_zone: 'Europe/Stockholm' },
    });
    expect(JSON.parse(entries.get('onboarding.json')?.toString('utf8') ?? '{}')).toMatchObject({ data: { challenge: 'Evenings, "after work", slip away' } });
    expect(JSON.parse(entries.get('coach-notes.json')?.toString('utf8') ?? '[]')).toEqual([expect.objectContaining({ message: 'Proud of your week, Maya' })]);
    for (const [name, bytes] of entries) expect({ name, private: bytes.includes('PRIVATE: ask about her knee') }).toEqual({ name, private: false });

    const streakDays = (
      await db.query(
        `SELECT day::text FROM (SELECT (created_at AT TIME ZONE 'Europe/Stockholm')::date AS day FROM progress.sparks WHERE user_id = $1
        UNION SELECT pause_date FROM progress.pause_days WHERE user_id = $1) days ORDER BY 1`,
        [client.id],
      )
    ).rows.map((row: { day: string }) => row.day);
    expect(csvRows(entries.get('streak-history.csv')?.toString('utf8') ?? '').map((row) => row[0])).toEqual(streakDays);
    expect((JSON.parse(entries.get('streak-history.json')?.toString('utf8') ?? '[]') as { day: string }[]).map((row) => row.day)).toEqual(streakDays);
    expect(csvRows(entries.get('evolutions.csv')?.toString('utf8') ?? '')).toEqual([['1', expect.any(String), expect.any(String), 'active']]);
    expect(entries.get('README.txt')?.toString('utf8')).toContain('sparks.csv');
    const presentation = ditlPresentationResponseSchema.parse(await (await call('GET', `/api/ditl/generations/${generationId}/presentation`, client)).json());
    expect(entries.get('ditl/presentation.html')?.toString('utf8')).toBe(presentation.html);
    expect(JSON.parse(entries.get('ditl/generation.json')?.toString('utf8') ?? '{}')).toMatchObject({ generationId, status: 'completed' });

    // Everything else Spark keeps about her: the lead, the /donate entry, reminder settings, every Day in the Life.
    const jsonOf = (name: string): unknown => JSON.parse(entries.get(name)?.toString('utf8') ?? 'null');
    expect(jsonOf('lead.json')).toMatchObject({
      fullName: 'Maya Lindqvist',
      company: 'Lindqvist Rowing AB',
      interest: 'Coaching for my first half marathon',
      primaryChallenge: 'consistency',
      approvalStatus: 'approved',
      createdAt: expect.any(String),
    });
    expect(jsonOf('donation.json')).toMatchObject({
      interest: 'I would back a habit app that my rowing club uses',
      createdAt: expect.any(String),
      campaignDeliveries: [expect.objectContaining({ subject: 'Spark raises its seed round', status: 'sent' })],
    });
    expect(jsonOf('reminders.json')).toMatchObject({
      enabled: true,
      localTime: '07:45',
      quietHours: { start: '22:00', end: '06:30' },
      pushDevice: 'https://fcm.googleapis.com/fcm/send/maya-phone',
    });
    for (const secret of ['PUSH-P256DH-secret', 'PUSH-AUTH-secret', 'UNSUBSCRIBE-TOKEN-not-for-the-archive']) {
      for (const [name, bytes] of entries) expect({ name, secret: bytes.includes(secret) }).toEqual({ name, secret: false });
    }
    const earlier = ditlPresentationResponseSchema.parse(await (await call('GET', `/api/ditl/generations/${earlierGenerationId}/presentation`, client)).json());
    const earlierEntries = [...entries.keys()].filter((name) => name.includes(earlierGenerationId));
    expect(earlierEntries.map((name) => entries.get(name)?.toString('utf8'))).toContain(earlier.html);
    expect(earlierEntries.some((name) => entries.get(name)?.includes(EARLIER_ANSWERS.typicalDay))).toBe(true);
    const readme = entries.get('README.txt')?.toString('utf8') ?? '';
    for (const name of ['lead.json', 'donation.json', 'reminders.json']) expect(readme).toContain(name);

    // The e-mail shows the expiry to the second; the signature's own clock may be a second later.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now()) + 2000));
    expect((await fetch(link)).status).toBe(403);
  }, 60_000);

  it('lets an admin, not a coach, export for a client; the link goes to the client', async () => {
    expect((await call('POST', `/api/coach/clients/${client.id}/export`, coach)).status).toBe(403);
    expect((await call('POST', `/api/coach/clients/${randomUUID()}/export`, admin)).status).toBe(404);
    expect((await call('POST', `/api/coach/clients/${client.id}/export`, admin)).status).toBe(202);
    const { link } = await exportMail(client.email, 2);
    expect(stack.smtp.messages.some((mail) => mail.to.includes(admin.email))).toBe(false);
    expect((await fetch(link)).status).toBe(200);
  }, 60_000);

  it('exports a user with nothing yet: empty tables, no progress, no Day in the Life; the page can download it at once', async () => {
    const newcomer = await createSignedInUser(db, 'newcomer@spark.test');
    const requested = await call('POST', '/api/progress/me/export', newcomer);
    expect(requested.status).toBe(202);
    const { exportId, estimatedBytes } = requestExportResponseSchema.parse(await requested.json());
    expect(estimatedBytes).toBe(0);
    // The page waits for it: the export's own link, before (and whatever becomes of) the e-mail.
    const ready = await eventually(
      async () => {
        const status = exportStatusSchema.parse(await (await call('GET', `/api/progress/me/exports/${exportId}`, newcomer)).json());
        return status.status === 'ready' ? status : undefined;
      },
      30_000,
      'the export ready in the page',
    );
    const inPage = await fetch(ready.downloadUrl ?? '');
    expect(inPage.status).toBe(200);
    expect((await unzip(Buffer.from(await inPage.arrayBuffer()))).has('README.txt')).toBe(true);
    // Nobody else's: another client asking for it finds nothing.
    expect((await call('GET', `/api/progress/me/exports/${exportId}`, client)).status).toBe(404);
    const { link } = await exportMail(newcomer.email, 1);
    const entries = await unzip(Buffer.from(await (await fetch(link)).arrayBuffer()));
    expect(JSON.parse(entries.get('sparks.json')?.toString('utf8') ?? '')).toEqual([]);
    expect(csvRows(entries.get('sparks.csv')?.toString('utf8') ?? '')).toEqual([]);
    expect(JSON.parse(entries.get('profile.json')?.toString('utf8') ?? '')).toMatchObject({ account: { email: newcomer.email }, progress: null });
    expect(JSON.parse(entries.get('ditl/generation.json')?.toString('utf8') ?? '')).toBeNull();
    expect(entries.has('ditl/presentation.html')).toBe(false);
  }, 60_000);

  it('outlasts a service it reads being down for longer than the old retry budget, and mails one link once it is back', async () => {
    const patient = await createSignedInUser(db, 'patient@spark.test');
    const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
    await stack.stopService('auth');
    try {
      const requested = await call('POST', '/api/progress/me/export', patient);
      expect(requested.status).toBe(202);
      const { exportId } = requestExportResponseSchema.parse(await requested.json());
      // The job's id is its outbox row's.
      const [{ id: jobId }] = (await db.query(`SELECT id FROM progress.outbox WHERE payload->>'exportId' = $1`, [exportId])).rows as { id: string }[];
      await eventually(
        async () => ((await jobs.queue(QUEUES.export).getJob(jobId))?.attemptsMade ?? 0) > ATTEMPTS_THE_OLD_BUDGET_HAD || undefined,
        120_000,
        'the export tried more often than the old budget allowed',
      );
    } finally {
      await stack.startService('auth');
      await jobs.close();
    }
    await exportMail(patient.email, 1);
    await untilIdle(stack);
    expect(stack.smtp.messages.filter((sent) => sent.to.includes(patient.email))).toHaveLength(1);
  }, 180_000);

  it('exports a spark whose file is gone from storage as a row without a file', async () => {
    const forgetful = await createSignedInUser(db, 'forgetful@spark.test');
    await capture(forgetful, TINY_PNG, 'image/png', 'kept');
    await capture(forgetful, TINY_PNG, 'image/png', 'lost');
    const { rows } = await db.query(`SELECT id, file_key, note FROM progress.sparks WHERE user_id = $1 ORDER BY created_at, id`, [forgetful.id]);
    const lost = (rows as { id: string; file_key: string; note: string }[]).find((row) => row.note === 'lost');
    await storage.delete(lost?.file_key ?? '');
    expect((await call('POST', '/api/progress/me/export', forgetful)).status).toBe(202);
    const entries = await unzip(Buffer.from(await (await fetch((await exportMail(forgetful.email, 1)).link)).arrayBuffer()));
    const sparksJson = JSON.parse(entries.get('sparks.json')?.toString('utf8') ?? '[]') as { id: string; note: string; file: string | null }[];
    expect(sparksJson.map(({ note, file }) => ({ note, file: file === null ? null : entries.has(file) }))).toEqual([
      { note: 'kept', file: true },
      { note: 'lost', file: null },
    ]);
  }, 60_000);

  it('builds and e-mails one archive per request: the same signed job added again after it left the queue does nothing', async () => {
    const replayed = await createSignedInUser(db, 'replayed@spark.test');
    const requested = await call('POST', '/api/progress/me/export', replayed);
    expect(requested.status).toBe(202);
    await exportMail(replayed.email, 1);
    const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
    const queue = jobs.queue(QUEUES.export);
    try {
      const [done] = await eventually(
        async () => {
          const completed = await queue.getJobs(['completed']);
          const own = completed.filter((job) => (job.data as { userId?: string }).userId === replayed.id);
          return own.length > 0 ? own : undefined;
        },
        15_000,
        'the completed export job',
      );
      // Whoever could read the queue then (BullMQ needs it to add) may add the job again, its signature intact.
      await done.remove();
      await queue.add(done.name, done.data, { jobId: done.id });
      await eventually(async () => ((await queue.getJobState(done.id ?? '')) === 'completed' ? true : undefined), 15_000, 'the replayed job to run');
    } finally {
      await jobs.close();
    }
    await untilIdle(stack);
    expect(stack.smtp.messages.filter((mail) => mail.to.includes(replayed.email))).toHaveLength(1);
  }, 60_000);

  it('leaves no archive of an account erased while its export was built, and sends no e-mail', async () => {
    const erased = await createSignedInUser(db, 'erased-mid-export@spark.test');
    const exportId = randomUUID();
    await db.query(`INSERT INTO progress.data_exports (id, user_id) VALUES ($1, $2)`, [exportId, erased.id]);
    // The erasure holds the request's row while the worker builds; the worker's last step waits for it.
    const erasure = new Client({ connectionString: stack.databaseUrl });
    await erasure.connect();
    const jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '', developmentSigningKeys());
    try {
      await erasure.query('BEGIN');
      await erasure.query(`SELECT 1 FROM progress.data_exports WHERE id = $1 FOR UPDATE`, [exportId]);
      const grant = signedExportGrant(developmentSigningKeys(), { userId: erased.id, email: erased.email });
      const data = { userId: erased.id, email: erased.email, requestedBy: erased.id, exportId, grant };
      await jobs.add([{ job: { queue: QUEUES.export, name: 'export-client-data', data }, jobId: `erased-${exportId}` }]);
      await eventually(async () => ((await lockWaiters(db, 'data_exports')) > 0 ? true : undefined), 15_000, "the worker's last step waiting");
      await erasure.query(`DELETE FROM progress.data_exports WHERE id = $1`, [exportId]);
      await erasure.query('COMMIT');
      await eventually(
        async () => ((await jobs.queue(QUEUES.export).getJobState(`erased-${exportId}`)) === 'completed' ? true : undefined),
        15_000,
        'the export job to end',
      );
    } finally {
      await jobs.close();
      await erasure.end();
    }
    await untilIdle(stack);
    expect(await storage.exists(`exports/${erased.id}/erased-${exportId}.zip`)).toBe(false);
    expect(stack.smtp.messages.filter((mail) => mail.to.includes(erased.email))).toEqual([]);
  }, 60_000);

  it("builds one archive per export id, the page's or an admin's, however often it is asked, and refuses another client's id", async () => {
    const twice = await createSignedInUser(db, 'asked-twice@spark.test');
    const other = await createSignedInUser(db, 'other-asker@spark.test');
    const exportId = randomUUID();
    const ask = (person: Person, body: unknown) =>
      fetch(`${stack.baseUrl}/api/progress/me/export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const answers = await Promise.all([ask(twice, { exportId }), ask(twice, { exportId })]);
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(requestExportResponseSchema.parse(await answer.json()).exportId).toBe(exportId);
    }
    const taken = await ask(other, { exportId });
    expect(taken.status).toBe(409);
    // An admin's "Send data export to client" the same way.
    const adminsExportId = randomUUID();
    const sendFor = () =>
      fetch(`${stack.baseUrl}/api/coach/clients/${other.id}/export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ exportId: adminsExportId }),
      });
    for (const sent of [await sendFor(), await sendFor()]) expect(requestExportResponseSchema.parse(await sent.json()).exportId).toBe(adminsExportId);

    await exportMail(twice.email, 1);
    await untilIdle(stack);
    expect(stack.smtp.messages.filter((sent) => sent.to.includes(twice.email))).toHaveLength(1);
    for (const person of [twice, other]) {
      expect((await db.query('SELECT count(*)::int AS count FROM progress.data_exports WHERE user_id = $1', [person.id])).rows).toEqual([{ count: 1 }]);
    }
  });

  it('answers 429 past three exports of one client a day, whoever asks', async () => {
    expect((await call('POST', '/api/progress/me/export', client)).status).toBe(202);
    const refused = await call('POST', '/api/progress/me/export', client);
    expect(refused.status).toBe(429);
    expect(errorBodySchema.parse(await refused.json()).message).toMatch(/^Too many requests/);
  });
});
