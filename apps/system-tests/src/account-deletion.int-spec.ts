import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { developmentSigningKeys } from '@spark/config';
import {
  accountDeletionPageSchema,
  addClientLeadResponseSchema,
  confirmAccountDeletionResponseSchema,
  deletionParts,
  errorBodySchema,
  investorPageSchema,
  leadInviteBodyOf,
  QUEUES,
} from '@spark/contracts';
import { JobQueues } from '@spark/jobs';
import { startService } from '@spark/service-runtime';
import { eventually, insertProgress, onboardingAnswers, TINY_PNG, captureSpark } from '@spark/testing';
import { Client } from 'pg';
import webpush from 'web-push';
import { leadsService } from '../../leads-service/src/service';
import { progressService } from '../../progress-service/src/service';
import { createSignedInUser, requestGeneration, TEST_JWT_SECRET } from './ditl-auth';
import { allServices, type InProcessStack, startInProcessStack } from './in-process-stack';
import { type PushStandIn, startPushStandIn } from './push-stand-in';
import { tablesMentioning } from './tables-mentioning';

type Person = { id: string; email: string; token: string };

describe('account deletion: every row and object about the client gone, each service erasing its own part', () => {
  let stack: InProcessStack;
  let db: Client;
  let client: Person;
  let admin: Person;
  let s3: S3Client;
  let stopLeads: (() => Promise<void>) | undefined;
  let stopProgressWithoutErasure: (() => Promise<void>) | undefined;
  let investorId: string;
  const vapid = webpush.generateVAPIDKeys();
  let pushService: PushStandIn;

  const send = (method: string, path: string, person?: Person, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(person ? { authorization: `Bearer ${person.token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const allKeys = async () => {
    const keys: string[] = [];
    for (const bucket of ['sparks', 'log'])
      keys.push(...((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((object) => `${bucket}/${object.Key}`));
    return keys;
  };
  const confirmationToken = async (email: string) => {
    const mail = await eventually(
      () => stack.smtp.messages.find((sent) => sent.to.includes(email) && sent.subject === 'Confirm deleting your Spark account'),
      20_000,
      'the confirmation e-mail',
    );
    const token = /\/account\/delete#token=([\w-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error('the confirmation e-mail has no link');
    return token;
  };
  const deletions = async () => accountDeletionPageSchema.parse(await (await send('GET', '/api/admin/account-deletions', admin)).json()).items;
  const partsDone = async (deletionId: string, expected: number) => {
    const record = (await deletions()).find((deletion) => deletion.id === deletionId);
    return record && record.parts.filter((part) => part.doneAt).length === expected ? record : undefined;
  };

  beforeAll(async () => {
    pushService = await startPushStandIn();
    // The leads-service runs apart, so the test can stop it while the deletion is confirmed and start it again.
    stack = await startInProcessStack({
      withNotifier: true,
      services: allServices.filter((service) => service.name !== 'leads'),
      env: {
        JWT_SECRET: TEST_JWT_SECRET,
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        PUSH_SERVICE_ORIGINS: pushService.url,
      },
    });
    s3 = new S3Client({
      endpoint: stack.s3.config.S3_ENDPOINT,
      region: stack.s3.config.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: stack.s3.config.S3_ACCESS_KEY_ID, secretAccessKey: stack.s3.config.S3_SECRET_ACCESS_KEY },
    });
    stopLeads = await startService({ ...leadsService, env: { ...stack.env } }, false);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    client = await createSignedInUser(db, 'noor.deleted@spark.test');
    admin = await createSignedInUser(db, 'admin@spark.test', 'admin');
    await db.query(
      `INSERT INTO leads.leads (id, email, role, full_name, interest, user_created) VALUES ($1, $2, 'client', 'Noor Haddad', 'Sleep better', true)`,
      [randomUUID(), client.email],
    );
    await insertProgress(db, {
      userId: client.id,
      email: client.email,
      fullName: 'Noor Haddad',
      goal: 'Sleep better',
      timeZone: 'Europe/Stockholm',
      daysIn: 3,
    });
    await db.query(`INSERT INTO progress.onboarding_data (user_id, data) VALUES ($1, $2)`, [client.id, { challenge: 'Late screens' }]);
    await db.query(`INSERT INTO progress.coach_notes (user_id, coach_id, message) VALUES ($1, $2, 'Good week')`, [client.id, admin.id]);
    await db.query(`INSERT INTO progress.coach_private_notes (user_id, coach_id, note) VALUES ($1, $2, 'Ask about naps')`, [client.id, admin.id]);
    await db.query(`INSERT INTO progress.pause_days (user_id, pause_date) VALUES ($1, current_date + 1)`, [client.id]);
    await db.query(`INSERT INTO progress.evolution_presets (email, custom_evolution_days) VALUES ($1, 60)`, [client.email]);
    const captured = await captureSpark(
      stack.baseUrl,
      { authorization: `Bearer ${client.token}` },
      { bytes: TINY_PNG, timeZone: 'Europe/Stockholm', note: 'Lights out at ten' },
    );
    expect(captured.status).toBe(201);
    const generationId = await requestGeneration(stack.baseUrl, client.token, onboardingAnswers({ firstName: 'Noor', transformationGoal: 'Sleep better' }));
    await eventually(
      () => stack.smtp.messages.find((sent) => sent.to.includes(client.email) && sent.subject === 'Your Day in the Life is ready'),
      30_000,
      `the DITL ${generationId}`,
    );
    // An admin's export: an audit entry about the client, an archive in S3 and one more e-mail in the ledger.
    expect((await send('POST', `/api/coach/clients/${client.id}/export`, admin)).status).toBe(202);
    await eventually(
      () => stack.smtp.messages.find((sent) => sent.to.includes(client.email) && sent.subject === 'Your Spark data is ready to download'),
      30_000,
      'the export',
    );
    // Before becoming a client, they asked for early access on /donate, in their own words and their address as
    // they typed it; an admin gave them a deck code and mailed the investors.
    const earlyAccess = { email: ` ${client.email.toUpperCase()} `, interest: 'Noor again: keep me posted about the clinic pilot' };
    expect((await send('POST', '/api/investors/early-access', undefined, earlyAccess)).status).toBe(202);
    const investors = investorPageSchema.parse(await (await send('GET', '/api/investors?limit=100', admin)).json()).items;
    const investor = investors.find((listed) => listed.email === client.email);
    if (!investor) throw new Error('the early-access form stored no investor');
    investorId = investor.id;
    expect((await send('POST', `/api/investors/${investorId}/access-code`, admin)).status).toBe(200);
    const campaign = { emails: [client.email], subject: 'Spark closes its first round', body: 'Hello investors.\n\nThank you.' };
    expect((await send('POST', '/api/investors/emails', admin, campaign)).status).toBe(200);
    await eventually(
      () => stack.smtp.messages.find((sent) => sent.to.includes(client.email) && sent.subject === campaign.subject),
      30_000,
      'the investor campaign',
    );
  }, 90_000);

  afterAll(async () => {
    await stopLeads?.();
    await stopProgressWithoutErasure?.();
    s3?.destroy();
    await db?.end();
    await stack?.stop();
    await pushService?.close();
  });

  it('erases everything after the e-mailed confirmation, the part of a service that was down included once it is back', async () => {
    expect(await tablesMentioning(db, client.id)).not.toEqual([]);
    expect((await allKeys()).some((key) => key.includes(client.id))).toBe(true);

    await stopLeads?.();
    stopLeads = undefined;
    expect((await send('POST', '/api/me/account-deletion', client)).status).toBe(202);
    const token = await confirmationToken(client.email);
    // Asking changes nothing: the account and its data are all there until the link is used.
    expect((await db.query(`SELECT 1 FROM auth.users WHERE id = $1`, [client.id])).rowCount).toBe(1);

    const confirmed = await send('POST', '/api/account-deletion/confirm', undefined, { token });
    expect(confirmed.status).toBe(200);
    const { deletionId } = confirmAccountDeletionResponseSchema.parse(await confirmed.json());

    // Signed out everywhere at once: the access token no longer changes anything.
    const afterwards = await send('POST', '/api/me/account-deletion', client);
    expect(afterwards.status).toBe(401);
    expect(errorBodySchema.parse(await afterwards.json()).message).toBe('This account was deleted.');
    // Confirmed again, as after an answer that never arrived: the same deletion and account, and nothing done twice.
    const deletionsOf = async () => (await db.query(`SELECT id, requested_at FROM auth.account_deletions WHERE user_id = $1`, [client.id])).rows;
    const recorded = await deletionsOf();
    const again = await send('POST', '/api/account-deletion/confirm', undefined, { token });
    expect(again.status).toBe(200);
    expect(confirmAccountDeletionResponseSchema.parse(await again.json())).toEqual({ deletionId, userId: client.id });
    expect(await deletionsOf()).toEqual(recorded);
    expect(recorded).toEqual([{ id: deletionId, requested_at: expect.any(Date) }]);

    // Every part but the leads-service's finishes; the record shows which.
    const waiting = await eventually(() => partsDone(deletionId, deletionParts.length - 1), 30_000, 'every part but the leads part erased');
    expect(waiting.completedAt).toBeNull();
    expect(waiting.parts.find((part) => part.part === 'leads')?.doneAt).toBeNull();
    expect(await tablesMentioning(db, client.email)).toEqual([
      expect.stringMatching(/^auth\.account_deletions|^leads\.leads/),
      expect.stringMatching(/^auth\.account_deletions|^leads\.leads/),
    ]);

    stopLeads = await startService({ ...leadsService, env: { ...stack.env } }, false);
    const complete = await eventually(() => partsDone(deletionId, deletionParts.length), 30_000, 'the leads part erased after the service came back');
    expect(complete.completedAt).not.toBeNull();
    // The deletion done, its record no longer knows whose it was: the link is spent like any other.
    expect((await send('POST', '/api/account-deletion/confirm', undefined, { token })).status).toBe(404);

    // Only the marker that keeps the account's old tokens refused names its id, and only until they would have expired;
    // and the progress and ditl services' notes of the erasure, which turn away a capture or a Day in the Life request
    // still under way, for a day.
    expect(await tablesMentioning(db, client.id)).toEqual(['auth.revocation_markers (1)', 'ditl.erased_users (1)', 'progress.erased_users (1)']);
    const marker = await db.query(
      `SELECT key, expires_at <= now() + interval '16 minutes' AS gone_in_time FROM auth.revocation_markers WHERE key LIKE '%' || $1`,
      [client.id],
    );
    expect(marker.rows).toEqual([{ key: expect.stringContaining(`:auth:tokens-void-before:${client.id}`), gone_in_time: true }]);
    expect(await tablesMentioning(db, client.email)).toEqual([]);
    expect((await allKeys()).filter((key) => key.includes(client.id) || key.includes(client.email))).toEqual([]);
    const lead = await db.query(`SELECT email, full_name, interest FROM leads.leads WHERE email LIKE 'erased-%'`);
    expect(lead.rows).toEqual([{ email: expect.stringMatching(/^erased-[0-9a-f-]+@erased\.invalid$/), full_name: null, interest: null }]);
    const ledger = await db.query(`SELECT count(*)::int AS rows FROM notifier.sent_emails WHERE recipient = 'erased'`);
    expect(ledger.rows[0].rows).toBeGreaterThanOrEqual(3);
    const audit = await db.query(`SELECT target_id, target_label FROM auth.audit_events WHERE action = 'client.data-export'`);
    expect(audit.rows).toEqual([{ target_id: deletionId, target_label: 'Deleted account' }]);
    // The /donate words and the deck code went with the investor row; the campaign itself is the admin's and stays.
    const investorRows = await db.query(
      `SELECT (SELECT count(*)::int FROM investor.investors WHERE id = $1 OR interest LIKE 'Noor again%') AS investors,
              (SELECT count(*)::int FROM investor.deck_access WHERE investor_id = $1) AS codes,
              (SELECT count(*)::int FROM investor.campaign_deliveries WHERE investor_id = $1) AS deliveries,
              (SELECT count(*)::int FROM investor.campaigns WHERE subject = 'Spark closes its first round') AS campaigns`,
      [investorId],
    );
    expect(investorRows.rows).toEqual([{ investors: 0, codes: 0, deliveries: 0, campaigns: 1 }]);
  }, 120_000);

  it("records a coach's edit of a client whose erasure is still under way without their id or address", async () => {
    const leaving = await createSignedInUser(db, 'rami.leaving@spark.test');
    await insertProgress(db, { userId: leaving.id, email: leaving.email, fullName: 'Rami Saleh', goal: 'Walk daily', timeZone: 'Europe/Stockholm', daysIn: 2 });
    // The progress service answers the dashboard but erases nothing: its part waits, as it does while S3 is down or its
    // worker is behind, and the client is still on the coach's list.
    await stack.stopService('progress');
    stopProgressWithoutErasure = await startService({ ...progressService, accountErasure: undefined, env: { ...stack.env } }, false);
    expect((await send('POST', '/api/me/account-deletion', leaving)).status).toBe(202);
    const confirmed = await send('POST', '/api/account-deletion/confirm', undefined, { token: await confirmationToken(leaving.email) });
    expect(confirmed.status).toBe(200);
    const { deletionId } = confirmAccountDeletionResponseSchema.parse(await confirmed.json());
    const waiting = await eventually(() => partsDone(deletionId, deletionParts.length - 1), 30_000, 'every part but the progress part erased');
    expect(waiting.parts.find((part) => part.part === 'progress')?.doneAt).toBeNull();

    // The gateway records the edit with the client's id and, from the progress service's answer, their address.
    expect((await send('PATCH', `/api/coach/clients/${leaving.id}`, admin, { status: 'paused' })).status).toBe(200);

    await stopProgressWithoutErasure();
    stopProgressWithoutErasure = undefined;
    await stack.startService('progress');
    await eventually(() => partsDone(deletionId, deletionParts.length), 30_000, 'the progress part erased once its worker runs');

    const mentions = { email: await tablesMentioning(db, leaving.email), id: await tablesMentioning(db, leaving.id) };
    expect(mentions).toEqual({ email: [], id: ['auth.revocation_markers (1)', 'ditl.erased_users (1)', 'progress.erased_users (1)'] });
    // The edit itself stays in the log, by its coach, about the deletion as the confirmation's entries are.
    const edit = await db.query(`SELECT actor_id, target_id, target_label, details FROM auth.audit_events WHERE action = 'client.update'`);
    expect(edit.rows).toEqual([{ actor_id: admin.id, target_id: deletionId, target_label: 'Deleted account', details: { status: 'paused' } }]);
  }, 120_000);

  it("makes no account for a person a coach adds again while their account's deletion is under way, and says why on Resend", async () => {
    const leaving = await createSignedInUser(db, 'sami.leaving@spark.test');
    await insertProgress(db, {
      userId: leaving.id,
      email: leaving.email,
      fullName: 'Sami Aziz',
      goal: 'Cook at home',
      timeZone: 'Europe/Stockholm',
      daysIn: 2,
    });
    await stack.stopService('progress');
    stopProgressWithoutErasure = await startService({ ...progressService, accountErasure: undefined, env: { ...stack.env } }, false);
    expect((await send('POST', '/api/me/account-deletion', leaving)).status).toBe(202);
    const confirmed = await send('POST', '/api/account-deletion/confirm', undefined, { token: await confirmationToken(leaving.email) });
    const { deletionId } = confirmAccountDeletionResponseSchema.parse(await confirmed.json());
    await eventually(() => partsDone(deletionId, deletionParts.length - 1), 30_000, 'every part but the progress part erased');

    // Its notifier part has noted the address, so an invitation now would never be sent while the coach read "sent".
    const added = await send('POST', '/api/coach/leads', admin, { email: leaving.email });
    const { lead, inviteSent } = addClientLeadResponseSchema.parse(await added.json());
    const resent = await send('POST', `/api/coach/leads/${lead.id}/resend`, admin, leadInviteBodyOf(lead));
    const users = await db.query('SELECT count(*)::int AS count FROM auth.users WHERE email = $1', [leaving.email]);
    expect({
      added: added.status,
      inviteSent,
      resent: resent.status,
      refusal: errorBodySchema.parse(await resent.json()).message,
      accounts: users.rows[0].count,
    }).toEqual({
      added: 201,
      inviteSent: false,
      resent: 409,
      refusal: "This person's account is being deleted. Please add them again once the deletion is done.",
      accounts: 0,
    });

    await stopProgressWithoutErasure();
    stopProgressWithoutErasure = undefined;
    await stack.startService('progress');
    await eventually(() => partsDone(deletionId, deletionParts.length), 30_000, 'the progress part erased once its worker runs');
  }, 120_000);

  it('sends no sign-in e-mail waiting for an account erased meanwhile, when the notifier starts with both jobs waiting', async () => {
    const leaving = await createSignedInUser(db, 'lina.leaving@spark.test');
    expect((await send('POST', '/api/me/account-deletion', leaving)).status).toBe(202);
    const token = await confirmationToken(leaving.email);
    // The notifier is down while they ask for a sign-in link and then confirm the deletion: both jobs wait for it.
    await stack.stopNotifier();
    try {
      expect((await send('POST', '/api/auth/magic-link', undefined, { email: leaving.email })).status).toBe(202);
      const confirmed = await send('POST', '/api/account-deletion/confirm', undefined, { token });
      expect(confirmed.status).toBe(200);
      const { deletionId } = confirmAccountDeletionResponseSchema.parse(await confirmed.json());
      await eventually(() => partsDone(deletionId, deletionParts.length - 1), 30_000, 'every part but the notifier part erased');
      const connection = stack.redis.duplicate();
      const jobs = new JobQueues(connection, stack.env.BUS_PREFIX ?? '');
      try {
        const [signInJob] = await jobs.queue(QUEUES.mail).getWaiting();
        expect(signInJob?.name).toBe('magic-link');
        await stack.startNotifier();
        await eventually(() => partsDone(deletionId, deletionParts.length), 30_000, 'the notifier part erased');
        await eventually(async () => (await signInJob?.getState()) === 'completed', 30_000, 'the sign-in e-mail job done');
      } finally {
        await jobs.close();
        connection.disconnect();
      }
    } finally {
      await stack.startNotifier();
    }
    const toThem = stack.smtp.messages.filter((sent) => sent.to.includes(leaving.email)).map((sent) => sent.subject);
    expect(toThem).toEqual(['Confirm deleting your Spark account']);
  }, 120_000);

  it('pushes no reminder waiting for an account erased meanwhile, when the notifier starts with both jobs waiting', async () => {
    const leaving = await createSignedInUser(db, 'pia.leaving@spark.test');
    const device = await pushService.newDevice(vapid.publicKey);
    expect((await send('POST', '/api/me/account-deletion', leaving)).status).toBe(202);
    const token = await confirmationToken(leaving.email);
    // The notifier is down while the reminder tick queues their push and they confirm the deletion: both jobs wait for it.
    await stack.stopNotifier();
    const connection = stack.redis.duplicate();
    const jobs = new JobQueues(connection, stack.env.BUS_PREFIX ?? '', developmentSigningKeys());
    try {
      const jobId = `push-${randomUUID()}`;
      const data = {
        subscription: { endpoint: device.endpoint, keys: device.keys },
        firstName: 'Pia',
        userId: leaving.id,
        localDate: new Date().toISOString().slice(0, 10),
      };
      await jobs.add([{ job: { queue: QUEUES.push, name: 'spark-reminder-push', data }, jobId }]);
      const confirmed = await send('POST', '/api/account-deletion/confirm', undefined, { token });
      expect(confirmed.status).toBe(200);
      const { deletionId } = confirmAccountDeletionResponseSchema.parse(await confirmed.json());
      await eventually(() => partsDone(deletionId, deletionParts.length - 1), 30_000, 'every part but the notifier part erased');
      await stack.startNotifier();
      await eventually(() => partsDone(deletionId, deletionParts.length), 30_000, 'the notifier part erased');
      const pushJob = await eventually(
        async () => {
          const job = await jobs.queue(QUEUES.push).getJob(jobId);
          return job?.finishedOn ? job : undefined;
        },
        30_000,
        'the push job done',
      );
      expect(await pushJob.getState()).toBe('completed');
    } finally {
      await jobs.close();
      connection.disconnect();
      await stack.startNotifier();
    }
    expect(await pushService.pushesTo(device.clientHash)).toEqual([]);
  }, 120_000);

  it('answers a coach or admin who asks to delete their own account 403, and a bad link 404, changing nothing', async () => {
    const refused = await send('POST', '/api/me/account-deletion', admin);
    expect(refused.status).toBe(403);
    const bad = await send('POST', '/api/account-deletion/confirm', undefined, { token: 'x'.repeat(43) });
    expect(bad.status).toBe(404);
    expect((await send('POST', '/api/account-deletion/confirm', undefined, { token: 'short' })).status).toBe(400);
    expect((await db.query(`SELECT 1 FROM auth.users WHERE id = $1`, [admin.id])).rowCount).toBe(1);
  });

  it('refuses the link of a client who became a coach after asking, 403, keeping the account and spending the link', async () => {
    const promoted = await createSignedInUser(db, 'promoted.after.asking@spark.test');
    expect((await send('POST', '/api/me/account-deletion', promoted)).status).toBe(202);
    const token = await confirmationToken(promoted.email);
    expect((await send('PATCH', `/api/admin/users/${promoted.id}/role`, admin, { role: 'coach' })).status).toBe(200);

    const refused = await send('POST', '/api/account-deletion/confirm', undefined, { token });
    expect(refused.status).toBe(403);
    expect(errorBodySchema.parse(await refused.json()).message).toBe(
      'Only a client account can be deleted here. A coach or admin account is removed by an admin.',
    );
    const kept = await db.query(`SELECT role FROM auth.users WHERE id = $1`, [promoted.id]);
    expect(kept.rows).toEqual([{ role: 'coach' }]);
    expect((await db.query(`SELECT 1 FROM auth.account_deletions WHERE user_id = $1`, [promoted.id])).rowCount).toBe(0);
    expect((await send('POST', '/api/account-deletion/confirm', undefined, { token })).status).toBe(404);
  });
});
