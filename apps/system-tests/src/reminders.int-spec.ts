import { developmentSigningKeys } from '@spark/config';
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUES, reminderSettingsSchema } from '@spark/contracts';
import { type JobRequest, JobQueues, signedJobData } from '@spark/jobs';
import { startService } from '@spark/service-runtime';
import { eventually, insertProgress } from '@spark/testing';
import { Client } from 'pg';
import webpush from 'web-push';
import { progressService } from '../../progress-service/src/service';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { type PushStandIn, startPushStandIn } from './push-stand-in';

type Person = { id: string; email: string; token: string };

/** A loopback HTTP server that counts the requests it is sent. */
async function startCountingServer(answer: RequestListener): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    request.resume().on('end', () => answer(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A zone whose wall clock is far enough from midnight that "a few minutes ago" and "in half an hour" are today. */
function middayZone(): { zone: string; at: (minutesFromNow: number) => string } {
  const hhmm = (zone: string, minutes: number) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(Date.now() + minutes * 60_000));
  const zone = ['Europe/Stockholm', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'America/Los_Angeles', 'Asia/Kolkata'].find((candidate) => {
    const now = hhmm(candidate, 0);
    return now >= '01:00' && now <= '22:00';
  });
  if (!zone) throw new Error('no zone is between 01:00 and 22:00 now');
  return { zone, at: (minutes) => hhmm(zone, minutes) };
}

describe('reminders only when needed: by push or e-mail, once a day, never after a spark or in quiet hours', () => {
  const vapid = webpush.generateVAPIDKeys();
  const { zone, at } = middayZone();
  let pushService: PushStandIn;
  // An address inside the network that no push service is, and an allowed push service that redirects there.
  let internal: Awaited<ReturnType<typeof startCountingServer>>;
  let redirecting: Awaited<ReturnType<typeof startCountingServer>>;
  let jobs: JobQueues;
  let stack: InProcessStack;
  let stopSecondProgress: () => Promise<void>;
  let db: Client;
  const people: Record<'byMail' | 'byPush' | 'sparked' | 'quiet' | 'paused' | 'off', Person> = {} as never;
  let deviceHash = '';

  const send = (method: string, path: string, person: Person | undefined, body?: unknown, contentType = 'application/json') =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(person ? { authorization: `Bearer ${person.token}` } : {}), ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const pushesTo = (clientHash: string) => pushService.pushesTo(clientHash);
  const mailsTo = (person: Person) => stack.smtp.messages.filter((mail) => mail.to.includes(person.email) && mail.subject === 'A spark for today?');

  const newDevice = () => pushService.newDevice(vapid.publicKey);
  /** A push reminder job for `device`, as the progress service queues one, for today. */
  const pushReminder = (
    device: { endpoint: string; keys: { p256dh: string; auth: string } },
    jobId: string,
    data: { firstName: string; dayEndsAt?: string },
  ) => ({
    job: {
      queue: QUEUES.push,
      name: 'spark-reminder-push' as const,
      data: { subscription: { endpoint: device.endpoint, keys: device.keys }, userId: randomUUID(), localDate: today(), ...data },
    },
    jobId,
  });

  const today = () => new Date().toISOString().slice(0, 10);
  /** Once a push job has been tried: sent, or failed (for good or to be retried). */
  const tried = async (jobId: string) => {
    const job = await jobs.queue(QUEUES.push).getJob(jobId);
    return job && (job.finishedOn || job.failedReason) ? { state: await job.getState(), attemptsMade: job.attemptsMade } : undefined;
  };

  beforeAll(async () => {
    pushService = await startPushStandIn();
    internal = await startCountingServer((_, response) => response.writeHead(201).end());
    redirecting = await startCountingServer((request, response) => response.writeHead(307, { location: `${internal.url}${request.url}` }).end());
    const env = {
      JWT_SECRET: TEST_JWT_SECRET,
      REMINDER_TICK_MS: '1000',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_SERVICE_ORIGINS: `${pushService.url},${redirecting.url}`,
    };
    stack = await startInProcessStack({ withNotifier: true, env });
    jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '', developmentSigningKeys());
    // A second progress-service: two reminder workers, one tick at a time, each reminder once.
    stopSecondProgress = await startService({ ...progressService, env: { ...stack.env } }, false);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    for (const name of Object.keys({ byMail: 0, byPush: 0, sparked: 0, quiet: 0, paused: 0, off: 0 }) as (keyof typeof people)[]) {
      people[name] = await createSignedInUser(db, `reminder-${name.toLowerCase()}@spark.test`);
      await insertProgress(db, {
        userId: people[name].id,
        email: people[name].email,
        fullName: `Sam ${name}`,
        goal: 'Sleep better',
        timeZone: zone,
        daysIn: 3,
      });
    }
  }, 60_000);

  afterAll(async () => {
    await jobs?.close();
    await db?.end();
    await stopSecondProgress?.();
    await stack?.stop();
    await pushService?.close();
    await internal?.close();
    await redirecting?.close();
  });

  it('sends each client who needs one exactly one reminder, by push when they have a device, and nothing to the rest', async () => {
    const dueNow = { enabled: true, localTime: at(-1), quietHours: null };
    const subscription = await newDevice();
    deviceHash = subscription.clientHash;
    const device = await send('PUT', '/api/progress/me/push-subscription', people.byPush, {
      subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
    });
    expect(device.status).toBe(200);
    expect(reminderSettingsSchema.parse(await device.json()).push).toBe(true);

    await db.query(`INSERT INTO progress.sparks (user_id, client_spark_id, spark_type, file_key, file_type) VALUES ($1, $2, 'photo', 'x/y.png', 'image/png')`, [
      people.sparked.id,
      randomUUID(),
    ]);
    await db.query(`INSERT INTO progress.pause_days (user_id, pause_date) VALUES ($1, (now() AT TIME ZONE $2)::date)`, [people.paused.id, zone]);
    for (const person of [people.byMail, people.byPush, people.sparked, people.paused]) {
      expect((await send('PUT', '/api/progress/me/reminders', person, dueNow)).status).toBe(200);
    }
    // Quiet from a minute after the reminder's time: by the time the tick sees it, it is quiet.
    expect(
      (await send('PUT', '/api/progress/me/reminders', people.quiet, { enabled: true, localTime: at(-2), quietHours: { start: at(-1), end: at(30) } })).status,
    ).toBe(200);
    expect((await send('PUT', '/api/progress/me/reminders', people.off, { ...dueNow, enabled: false })).status).toBe(200);
    // A time already past today is next due tomorrow (checked below); here the day moves on to it, for everyone at once.
    await db.query(`UPDATE progress.reminder_settings SET next_due_at = now() - interval '1 second'`);

    const [push] = await eventually(
      async () => {
        const received = await pushesTo(subscription.clientHash);
        return received.length > 0 ? received : undefined;
      },
      20_000,
      'the push notification',
    );
    expect(JSON.parse(String(push))).toEqual({
      title: 'A spark for today?',
      body: 'Sam, no spark yet today. One photo keeps your streak going.',
      url: '/app?capture=1',
    });
    const [mail] = await eventually(async () => (mailsTo(people.byMail).length > 0 ? mailsTo(people.byMail) : undefined), 20_000, 'the reminder e-mail');
    expect(mail?.text).toContain('Capture a spark: ');

    // Idle: several more ticks have run on the two replicas and nothing is left to send.
    const ticks = async () => Number((await stack.redis.zcard(`${stack.env.BUS_PREFIX}:bull:reminders:completed`)) ?? 0);
    const ticksAfterSending = await ticks();
    await eventually(async () => ((await ticks()) >= ticksAfterSending + 3 ? true : undefined), 20_000, 'three more ticks');
    await eventually(
      async () => {
        const { rows } = await db.query(`SELECT count(*)::int AS pending FROM progress.outbox WHERE dispatched_at IS NULL`);
        const mailWaiting = await stack.redis.llen(`${stack.env.BUS_PREFIX}:bull:mail:wait`);
        const pushWaiting = await stack.redis.llen(`${stack.env.BUS_PREFIX}:bull:push:wait`);
        return rows[0].pending === 0 && mailWaiting === 0 && pushWaiting === 0 ? true : undefined;
      },
      20_000,
      'nothing left to send',
    );

    expect(await pushesTo(subscription.clientHash)).toHaveLength(1);
    expect(mailsTo(people.byMail)).toHaveLength(1);
    expect(mailsTo(people.byPush)).toHaveLength(0);
    // Each queue's workers count what they finish, the per-minute figure the "workers stuck" alert reads.
    for (const queue of ['reminders', 'push', 'mail']) {
      const counted = await stack.redis.hget(`${stack.env.BUS_PREFIX}:bull:${queue}:metrics:completed`, 'count');
      expect({ queue, counted: Number(counted) > 0 }).toEqual({ queue, counted: true });
    }
    for (const person of [people.sparked, people.quiet, people.paused, people.off]) expect([person.email, mailsTo(person).length]).toEqual([person.email, 0]);

    // Never twice a day: a client who moves their time after today's reminder gets none at the new time today.
    expect((await send('PUT', '/api/progress/me/reminders', people.byPush, { ...dueNow, localTime: at(-2) })).status).toBe(200);
    await db.query(`UPDATE progress.reminder_settings SET next_due_at = now() - interval '1 second' WHERE user_id = $1`, [people.byPush.id]);
    await eventually(
      async () =>
        (await db.query(`SELECT 1 FROM progress.reminder_settings WHERE user_id = $1 AND next_due_at > now()`, [people.byPush.id])).rowCount ? true : undefined,
      20_000,
      'the moved reminder claimed',
    );
    const ticksAfterMoving = await ticks();
    await eventually(async () => ((await ticks()) >= ticksAfterMoving + 2 ? true : undefined), 20_000, 'two more ticks');
    expect(await pushesTo(subscription.clientHash)).toHaveLength(1);
  }, 90_000);

  it('forgets a device the push service has dropped, and reminds that client by e-mail from then on', async () => {
    expect((await fetch(`${pushService.url}/expire-subscription/${encodeURIComponent(deviceHash)}`, { method: 'POST' })).status).toBe(200);
    // Today again as if it were the next day: the progress service's and the notifier's records of today's reminder go.
    const remindAgain = async () => {
      await db.query(`DELETE FROM notifier.sent_emails WHERE job_name = 'spark-reminder-push'`);
      await db.query(`UPDATE progress.reminder_settings SET next_due_at = now() - interval '1 second', last_sent_on = NULL WHERE user_id = $1`, [
        people.byPush.id,
      ]);
    };
    await remindAgain();
    await eventually(
      async () => {
        const settings = reminderSettingsSchema.parse(await (await send('GET', '/api/progress/me/reminders', people.byPush)).json());
        return settings.push ? undefined : settings;
      },
      20_000,
      'the dropped device forgotten',
    );
    await remindAgain();
    await eventually(async () => (mailsTo(people.byPush).length === 1 ? true : undefined), 20_000, 'the reminder by e-mail');
  }, 60_000);

  it("schedules the next reminder at the wall-clock time in the client's zone, across DST and when the zone changes", async () => {
    const next = async (time: string, zone: string, after: string) =>
      (
        (await db.query(`SELECT progress.next_local_occurrence($1::time, $2, $3::timestamptz) AS at`, [time, zone, after])).rows[0] as { at: Date }
      ).at.toISOString();
    // Later today, or tomorrow once today's has passed.
    expect(await next('20:00', 'Europe/Stockholm', '2026-11-26T12:00:00Z')).toBe('2026-11-26T19:00:00.000Z');
    expect(await next('20:00', 'Europe/Stockholm', '2026-11-26T19:00:00Z')).toBe('2026-11-27T19:00:00.000Z');
    // Over the spring-forward night the same 20:00 is an hour earlier in UTC; 02:30 does not exist and moves to 03:30.
    expect(await next('20:00', 'Europe/Stockholm', '2026-03-28T20:00:00Z')).toBe('2026-03-29T18:00:00.000Z');
    expect(await next('02:30', 'Europe/Stockholm', '2026-03-28T20:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
    // Travelling: a new zone on the client's progress moves the next reminder to 20:00 there.
    await db.query(`UPDATE progress.reminder_settings SET enabled = true, local_time = '20:00' WHERE user_id = $1`, [people.off.id]);
    await db.query(`UPDATE progress.user_progress SET time_zone = 'Asia/Tokyo' WHERE user_id = $1`, [people.off.id]);
    const { rows } = await db.query(`SELECT (next_due_at AT TIME ZONE 'Asia/Tokyo')::time::text AS local FROM progress.reminder_settings WHERE user_id = $1`, [
      people.off.id,
    ]);
    expect(rows[0].local).toBe('20:00:00');
    await db.query(`UPDATE progress.reminder_settings SET enabled = false WHERE user_id = $1`, [people.off.id]);
  });

  it('unsubscribes in one click from the e-mail, as a mail client posts it', async () => {
    const [mail] = mailsTo(people.byMail);
    const unsubscribeUrl = /^<([^>]+)>$/.exec(mail?.headers['list-unsubscribe'] ?? '')?.[1];
    expect(mail?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(unsubscribeUrl).toMatch(/\/api\/reminders\/unsubscribe\?token=/);
    const path = new URL(unsubscribeUrl ?? '').pathname + new URL(unsubscribeUrl ?? '').search;
    const unsubscribed = await send('POST', path, undefined, 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');
    expect(unsubscribed.status).toBe(200);
    const settings = reminderSettingsSchema.parse(await (await send('GET', '/api/progress/me/reminders', people.byMail)).json());
    expect(settings.enabled).toBe(false);
  });

  it('refuses a push endpoint outside the known push services, and a reminder time inside the quiet hours', async () => {
    const elsewhere = await send('PUT', '/api/progress/me/push-subscription', people.off, {
      subscription: {
        endpoint: 'http://169.254.169.254/latest/meta-data',
        keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' },
      },
    });
    expect(elsewhere.status).toBe(400);
    const quiet = await send('PUT', '/api/progress/me/reminders', people.off, {
      enabled: true,
      localTime: '23:00',
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(quiet.status).toBe(400);
    expect(reminderSettingsSchema.parse(await (await send('GET', '/api/progress/me/reminders', people.off)).json())).toMatchObject({
      enabled: false,
      push: false,
    });
  });

  describe('a push job that does not point at an allowed push service', () => {
    const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };
    const queuePush = async (endpoint: string, userId: string) => {
      const jobId = `push-${randomUUID()}`;
      await jobs.add([
        {
          job: { queue: QUEUES.push, name: 'spark-reminder-push', data: { subscription: { endpoint, keys }, firstName: null, userId, localDate: today() } },
          jobId,
        },
      ]);
      return jobId;
    };

    it('is refused for good without a request to its address, and a stored subscription there is forgotten', async () => {
      const person = await createSignedInUser(db, 'reminder-elsewhere@spark.test');
      await insertProgress(db, { userId: person.id, email: person.email, fullName: 'Sam Elsewhere', goal: 'Sleep better', timeZone: zone, daysIn: 3 });
      expect((await send('PUT', '/api/progress/me/reminders', person, { enabled: false, localTime: '20:00', quietHours: null })).status).toBe(200);
      // Stored before its push service left the allowed list, say: the notifier checks again, whatever queued the job.
      const endpoint = `${internal.url}/latest/meta-data`;
      await db.query(`UPDATE progress.reminder_settings SET push_subscription = $2::jsonb WHERE user_id = $1`, [person.id, JSON.stringify({ endpoint, keys })]);

      const jobId = await queuePush(endpoint, person.id);
      const outcome = await eventually(() => tried(jobId), 20_000, 'the push job to be tried');
      expect(internal.requests()).toBe(0);
      expect(outcome).toEqual({ state: 'failed', attemptsMade: 1 });
      expect(reminderSettingsSchema.parse(await (await send('GET', '/api/progress/me/reminders', person)).json()).push).toBe(false);
    });

    it('is not followed when an allowed push service redirects it elsewhere', async () => {
      const [redirectedBefore, internalBefore] = [redirecting.requests(), internal.requests()];
      const jobId = await queuePush(`${redirecting.url}/notify/abc`, randomUUID());
      const outcome = await eventually(() => tried(jobId), 20_000, 'the push job to be tried');
      expect(redirecting.requests()).toBeGreaterThan(redirectedBefore);
      expect(internal.requests()).toBe(internalBefore);
      expect(outcome.state).not.toBe('completed');
    });
  });

  it('notifies a device at most once a day, greeting it by one name-like word, whatever a compromised progress service queues', async () => {
    const device = await newDevice();
    const reminder = (jobId: string, firstName: string) => pushReminder(device, jobId, { firstName });
    // Signed as the progress service signs, past the checks it makes of its own jobs.
    const inOtherWords = reminder('push-in-other-words', 'Claim your prize at evil.example');
    await jobs
      .queue(QUEUES.push)
      .add('spark-reminder-push', signedJobData(developmentSigningKeys(), inOtherWords.job as JobRequest, inOtherWords.jobId), { jobId: inOtherWords.jobId });
    expect(await eventually(() => tried('push-in-other-words'), 20_000, 'the push job to be tried')).toEqual({ state: 'failed', attemptsMade: 1 });

    const copies = ['push-again-1', 'push-again-2', 'push-again-3'];
    await jobs.add(copies.map((jobId) => reminder(jobId, 'Maya')));
    for (const jobId of copies) await eventually(() => tried(jobId), 20_000, `${jobId} to be tried`);
    expect((await pushesTo(device.clientHash)).map((push) => (JSON.parse(String(push)) as { body: string }).body)).toEqual([
      'Maya, no spark yet today. One photo keeps your streak going.',
    ]);
  });

  it("refuses for good a push whose client's day has ended, however much of that date is left elsewhere, and sends one inside it", async () => {
    const device = await newDevice();
    const reminder = (jobId: string, minutesToDayEnd: number) =>
      pushReminder(device, jobId, { firstName: 'Maya', dayEndsAt: new Date(Date.now() + minutesToDayEnd * 60_000).toISOString() });
    // Held up by retries past the client's midnight: today is still that date somewhere, but not where they live.
    await jobs.add([reminder('push-after-its-day', -1)]);
    expect(await eventually(() => tried('push-after-its-day'), 20_000, 'the late push job to be tried')).toEqual({ state: 'failed', attemptsMade: 1 });
    expect((await jobs.queue(QUEUES.push).getJob('push-after-its-day'))?.failedReason).toMatch(/^spark reminder not sent: the client's .* ended at /);
    expect(await pushesTo(device.clientHash)).toEqual([]);

    await jobs.add([reminder('push-inside-its-day', 60)]);
    expect((await eventually(() => tried('push-inside-its-day'), 20_000, 'the push job to be tried')).state).toBe('completed');
    expect(await pushesTo(device.clientHash)).toHaveLength(1);
  });
});
