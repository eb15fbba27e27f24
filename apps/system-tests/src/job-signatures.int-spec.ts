import { exportPrefix, type MailJobName, QUEUES, type QueueName } from '@spark/contracts';
import { authEnv, developmentSigningKeys, loadConfig, notifierEnv } from '@spark/config';
import { type JobRequest, JobQueues, MailSealer, signedJobData } from '@spark/jobs';
import { signedCampaignApproval, signedDitlRequest, signedLeadSubmission } from '@spark/messaging';
import { eventually } from '@spark/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createSignedInUser, TEST_JWT_SECRET } from './ditl-auth';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

/**
 * Redis cannot tell a queue's readers from its writers (BullMQ reads to add), and the gateway may write to every
 * queue for its queue board (deploy/redis/users.acl). So a job's worker must not trust that whoever could add it
 * was its producer: a compromised gateway could otherwise have a client's archive e-mailed to itself, and any service
 * that queues mail could have the notifier send an investor e-mail of its own making, or the leads-service have it
 * confirm or alert the team of a lead nobody submitted, the ditl-service mail a Day in the Life nobody asked for, or
 * the progress service remind anyone, as often as it likes.
 */
describe('jobs only their producer could have queued', () => {
  let stack: InProcessStack;
  let db: Client;
  let jobs: JobQueues;

  beforeAll(async () => {
    stack = await startInProcessStack({ env: { JWT_SECRET: TEST_JWT_SECRET } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    jobs = new JobQueues(stack.redis, stack.env.BUS_PREFIX ?? '');
  });
  afterAll(async () => {
    await jobs?.close();
    await db?.end();
    await stack?.stop();
  });

  /** As a compromised producer of mail queues an e-mail: signed with its own key, as its jobs are. */
  const queueAsItsProducer = (name: MailJobName, jobId: string, data: Record<string, unknown>) =>
    jobs.queue(QUEUES.mail).add(name, signedJobData(developmentSigningKeys(), { queue: QUEUES.mail, name, data } as JobRequest, jobId), { jobId });
  // Seals as every producer of mail does, with the notifier's public key of the test stack.
  const sealer = new MailSealer(loadConfig(authEnv, {}).MAIL_SEAL_PUBLIC_KEY);
  const mailsTo = (address: string) => stack.smtp.messages.filter((mail) => mail.to.includes(address));
  const failedReason = async (queue: QueueName, jobId: string) => {
    await eventually(async () => ((await jobs.queue(queue).getJobState(jobId)) === 'failed' ? true : undefined), 15_000, `job ${jobId} to fail`);
    const job = await jobs.queue(queue).getJob(jobId);
    return { reason: job?.failedReason, attempts: job?.attemptsMade };
  };

  it("refuses an export job written straight to the queue: a client's archive linked to someone else's address", async () => {
    const client = await createSignedInUser(db, 'exported-by-someone-else@example.com');
    const outsider = 'archive-thief@example.com';
    await jobs.queue(QUEUES.export).add('export-client-data', { userId: client.id, email: outsider, requestedBy: client.id }, { jobId: 'forged-export' });

    expect(await failedReason(QUEUES.export, 'forged-export')).toEqual({ reason: expect.stringMatching(/not signed by progress/), attempts: 1 });
    await untilIdle(stack);
    expect(mailsTo(outsider)).toEqual([]);
  });

  it('refuses an investor e-mail that the investor service did not queue, even signed by another service that queues mail', async () => {
    const recipient = 'phished-investor@example.com';
    const data = {
      deliveryId: randomUUID(),
      campaignId: randomUUID(),
      email: recipient,
      approval: { approvedAt: Date.now(), signature: 'a'.repeat(43) },
      sealed: await sealer.seal('investor-email', recipient, { subject: 'Your Spark shares', body: 'Confirm at evil.example' }),
    };
    await jobs.queue(QUEUES.mail).add('investor-email', data, { jobId: 'forged-investor-email' });
    // The leads-service's key signs its own e-mails; the notifier checks an investor e-mail with the investor service's.
    const leadsKey = developmentSigningKeys().get('job:mail/leads')?.[0];
    const forged = signedJobData(
      new Map([['job:mail/investor', leadsKey ? [leadsKey] : []]]),
      { queue: QUEUES.mail, name: 'investor-email', data },
      'signed-by-leads',
    );
    await jobs.queue(QUEUES.mail).add('investor-email', forged, { jobId: 'signed-by-leads' });

    for (const jobId of ['forged-investor-email', 'signed-by-leads'])
      expect(await failedReason(QUEUES.mail, jobId)).toEqual({ reason: expect.stringMatching(/not signed by investor/), attempts: 1 });
    await untilIdle(stack);
    expect(mailsTo(recipient)).toEqual([]);
  });

  it('refuses an investor e-mail the investor service signed, of a text or to a recipient no admin approved', async () => {
    const keys = developmentSigningKeys();
    const chosen = 'investor-an-admin-chose@example.com';
    const outsider = 'phished-by-the-investor-service@example.com';
    const approvedText = { subject: 'Our first year', body: 'Thank you for believing in Spark.' };
    const approval = signedCampaignApproval(keys, { emails: [chosen], ...approvedText });
    const approvedFor = (email: string) => ({ approvedAt: approval.approvedAt, signature: approval.signatures[email] ?? '' });
    const delivery = () => ({ deliveryId: randomUUID(), campaignId: randomUUID() });
    // The investor service seals the text it queues, so taken over it can seal a text of its own.
    const ownText = { subject: 'Your Spark shares', body: 'Confirm at evil.example' };
    await queueAsItsProducer('investor-email', 'own-text-unapproved', {
      ...delivery(),
      email: outsider,
      sealed: await sealer.seal('investor-email', outsider, ownText),
    });
    await queueAsItsProducer('investor-email', 'approved-text-to-another', {
      ...delivery(),
      email: outsider,
      approval: approvedFor(chosen),
      sealed: await sealer.seal('investor-email', outsider, approvedText),
    });
    await queueAsItsProducer('investor-email', 'own-text-to-the-chosen', {
      ...delivery(),
      email: chosen,
      approval: approvedFor(chosen),
      sealed: await sealer.seal('investor-email', chosen, ownText),
    });

    expect(await failedReason(QUEUES.mail, 'own-text-unapproved')).toEqual({ reason: expect.stringMatching(/Invalid payload.*approval/s), attempts: 1 });
    for (const jobId of ['approved-text-to-another', 'own-text-to-the-chosen'])
      expect(await failedReason(QUEUES.mail, jobId)).toEqual({
        reason: 'investor e-mail not sent: no admin approved this text for this recipient',
        attempts: 1,
      });
    await untilIdle(stack);
    expect([...mailsTo(outsider), ...mailsTo(chosen)]).toEqual([]);
  });

  /** A lead submitted through the gateway, once its e-mails have gone: the id and payload of each of its jobs, from the outbox. */
  const submittedLead = async (email: string) => {
    const response = await fetch(`${stack.baseUrl}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, role: 'client', interest: 'Sleeping before midnight' }),
    });
    expect(response.status).toBe(201);
    await untilIdle(stack);
    const { rows } = await db.query<{ id: string; job_name: string; payload: Record<string, unknown> }>(
      `SELECT id, job_name, payload FROM leads.outbox WHERE payload->>'email' = $1`,
      [email],
    );
    const jobOf = (name: string) => {
      const row = rows.find(({ job_name }) => job_name === name);
      if (!row) throw new Error(`no ${name} queued for ${email}`);
      return row;
    };
    return { confirmation: jobOf('lead-confirmation'), alert: jobOf('lead-alert') };
  };
  const teamAlertsAbout = (address: string) => mailsTo(stack.env.LEAD_ALERT_EMAIL ?? '').filter((mail) => mail.subject.endsWith(`lead: ${address}`));

  it('refuses a lead confirmation the leads-service signed, to an address or with a role no visitor submitted', async () => {
    const visitor = 'visitor-who-submitted@example.com';
    const outsider = 'spammed-by-the-leads-service@example.com';
    const submission = signedLeadSubmission(developmentSigningKeys(), { email: visitor, role: 'client', interest: null });
    const confirmation = (email: string, role: string) => ({ leadId: randomUUID(), email, role, interest: null });
    await queueAsItsProducer('lead-confirmation', 'confirmation-unsubmitted', confirmation(outsider, 'client'));
    await queueAsItsProducer('lead-confirmation', 'submission-of-another', { ...confirmation(outsider, 'client'), submission });
    await queueAsItsProducer('lead-confirmation', 'another-role', { ...confirmation(visitor, 'coach'), submission });

    expect(await failedReason(QUEUES.mail, 'confirmation-unsubmitted')).toEqual({ reason: expect.stringMatching(/Invalid payload.*submission/s), attempts: 1 });
    for (const jobId of ['submission-of-another', 'another-role'])
      expect(await failedReason(QUEUES.mail, jobId)).toEqual({ reason: 'lead confirmation not sent: no visitor submitted this form', attempts: 1 });
    await untilIdle(stack);
    expect([...mailsTo(outsider), ...mailsTo(visitor)]).toEqual([]);
  });

  it("refuses a team alert the leads-service signed, for a lead no visitor submitted or in words that are not the visitor's", async () => {
    const visitor = 'visitor-the-team-hears-of@example.com';
    const invented = 'lead-the-leads-service-invented@example.com';
    const form = { email: visitor, role: 'client', interest: 'Sleeping before midnight' } as const;
    const submission = signedLeadSubmission(developmentSigningKeys(), form);
    const alert = (email: string, interest: string) => ({ leadId: randomUUID(), email, role: 'client', interest, createdAt: new Date().toISOString() });
    await queueAsItsProducer('lead-alert', 'alert-unsubmitted', alert(invented, form.interest));
    await queueAsItsProducer('lead-alert', 'alert-for-another', { ...alert(invented, form.interest), submission });
    await queueAsItsProducer('lead-alert', 'alert-in-other-words', { ...alert(visitor, 'Urgent: confirm the payout at evil.example'), submission });

    expect(await failedReason(QUEUES.mail, 'alert-unsubmitted')).toEqual({ reason: expect.stringMatching(/Invalid payload.*submission/s), attempts: 1 });
    for (const jobId of ['alert-for-another', 'alert-in-other-words'])
      expect(await failedReason(QUEUES.mail, jobId)).toEqual({ reason: 'lead alert not sent: no visitor submitted this form', attempts: 1 });
    await untilIdle(stack);
    expect([...teamAlertsAbout(invented), ...teamAlertsAbout(visitor)]).toEqual([]);
  });

  it('refuses a Day in the Life e-mail the ditl-service signed, to an address or under a name no client gave', async () => {
    const client = 'client-who-onboarded@example.com';
    const outsider = 'phished-by-the-ditl-service@example.com';
    const requested = signedDitlRequest(developmentSigningKeys(), { email: client, firstName: 'Maya' });
    await queueAsItsProducer('ditl-ready', 'ditl-ready-unrequested', { generationId: randomUUID(), email: outsider, firstName: 'Maya' });
    await queueAsItsProducer('ditl-ready', 'ditl-ready-to-another', { generationId: randomUUID(), email: outsider, firstName: 'Maya', requested });
    await queueAsItsProducer('ditl-ready', 'ditl-ready-other-name', {
      generationId: randomUUID(),
      email: client,
      firstName: 'Claim your prize at evil.example',
      requested,
    });

    expect(await failedReason(QUEUES.mail, 'ditl-ready-unrequested')).toEqual({ reason: expect.stringMatching(/Invalid payload.*requested/s), attempts: 1 });
    for (const jobId of ['ditl-ready-to-another', 'ditl-ready-other-name'])
      expect(await failedReason(QUEUES.mail, jobId)).toEqual({
        reason: 'Day in the Life e-mail not sent: no client asked for it at this address under this name',
        attempts: 1,
      });
    await untilIdle(stack);
    expect([...mailsTo(outsider), ...mailsTo(client)]).toEqual([]);
  });

  /** A spark reminder as the progress service queues one: for a client's account, sealed for its address, of today. */
  const sparkReminder = async (userId: string, email: string, changes: Record<string, unknown> = {}) => ({
    userId,
    email,
    firstName: 'Maya',
    localDate: new Date().toISOString().slice(0, 10),
    sealed: await sealer.seal('spark-reminder', email, { unsubscribeToken: randomUUID() }),
    ...changes,
  });
  const remindedClient = async (email: string) => {
    const client = await createSignedInUser(db, email);
    await db.query(`UPDATE auth.users SET full_name = 'Maya Stone' WHERE id = $1`, [client.id]);
    return client;
  };

  it("refuses a spark reminder the progress service signed, to an address that is not its client's or for a day that is nobody's today", async () => {
    const client = await remindedClient('reminded-client@example.com');
    const outsider = 'phished-by-the-progress-service@example.com';
    await queueAsItsProducer('spark-reminder', 'reminder-to-an-outsider', await sparkReminder(client.id, outsider));
    await queueAsItsProducer('spark-reminder', 'reminder-of-no-account', await sparkReminder(randomUUID(), outsider));
    const coach = await createSignedInUser(db, 'reminded-coach@example.com', 'coach');
    await queueAsItsProducer('spark-reminder', 'reminder-of-a-coach', await sparkReminder(coach.id, coach.email));
    await queueAsItsProducer('spark-reminder', 'reminder-of-long-ago', await sparkReminder(client.id, client.email, { localDate: '2020-01-01' }));
    await queueAsItsProducer(
      'spark-reminder',
      'reminder-in-other-words',
      await sparkReminder(client.id, client.email, { firstName: 'Claim your prize at evil.example' }),
    );

    expect(await failedReason(QUEUES.mail, 'reminder-to-an-outsider')).toEqual({
      reason: "spark reminder not sent: this is not the address of the client's account",
      attempts: 1,
    });
    for (const jobId of ['reminder-of-no-account', 'reminder-of-a-coach'])
      expect(await failedReason(QUEUES.mail, jobId)).toEqual({ reason: 'spark reminder not sent: no client has this account', attempts: 1 });
    expect(await failedReason(QUEUES.mail, 'reminder-of-long-ago')).toEqual({
      reason: 'spark reminder not sent: 2020-01-01 is not today anywhere',
      attempts: 1,
    });
    await untilIdle(stack);
    expect([...mailsTo(outsider), ...mailsTo(coach.email)]).toEqual([]);
    // The greeting is the account's own first name, whatever the job says.
    expect(mailsTo(client.email).map((mail) => mail.text.split('\n')[0])).toEqual([
      'Hi Maya, no spark yet today. One photo or a line about a small win keeps your streak going.',
    ]);
  });

  it("refuses for good a spark reminder whose client's day has ended, however much of that date is left elsewhere, and sends one inside it", async () => {
    const client = await remindedClient('reminded-past-midnight@example.com');
    const at = (minutesFromNow: number) => new Date(Date.now() + minutesFromNow * 60_000).toISOString();
    // Held up by retries past the client's midnight: today is still that date somewhere, but not where they live.
    await queueAsItsProducer('spark-reminder', 'reminder-after-its-day', await sparkReminder(client.id, client.email, { dayEndsAt: at(-1) }));
    // The progress service's deadline cannot outlast the date everywhere.
    await queueAsItsProducer(
      'spark-reminder',
      'reminder-stretched-past-its-date',
      await sparkReminder(client.id, client.email, { localDate: '2020-01-01', dayEndsAt: at(60) }),
    );

    await eventually(
      async () => ['completed', 'failed'].includes(await jobs.queue(QUEUES.mail).getJobState('reminder-after-its-day')),
      15_000,
      'the late reminder to be tried',
    );
    const late = await jobs.queue(QUEUES.mail).getJob('reminder-after-its-day');
    expect({ state: await late?.getState(), reason: late?.failedReason, attempts: late?.attemptsMade }).toEqual({
      state: 'failed',
      reason: expect.stringMatching(/^spark reminder not sent: the client's \d{4}-\d\d-\d\d ended at /),
      attempts: 1,
    });
    expect(await failedReason(QUEUES.mail, 'reminder-stretched-past-its-date')).toEqual({
      reason: 'spark reminder not sent: 2020-01-01 is not today anywhere',
      attempts: 1,
    });
    await untilIdle(stack);
    expect(mailsTo(client.email)).toEqual([]);

    await queueAsItsProducer('spark-reminder', 'reminder-inside-its-day', await sparkReminder(client.id, client.email, { dayEndsAt: at(60) }));
    await untilIdle(stack);
    expect(await jobs.queue(QUEUES.mail).getJobState('reminder-inside-its-day')).toBe('completed');
    expect(mailsTo(client.email)).toHaveLength(1);
  });

  it('sends a client one spark reminder a day, however many jobs a compromised progress service queues for them', async () => {
    const client = await remindedClient('reminded-once@example.com');
    for (const copy of ['1', '2', '3']) await queueAsItsProducer('spark-reminder', `reminder-again-${copy}`, await sparkReminder(client.id, client.email));

    await untilIdle(stack);
    expect(mailsTo(client.email)).toHaveLength(1);
  });

  it("refuses an export e-mail the progress service signed, to an address that is not its client's or with another's archive", async () => {
    const client = await createSignedInUser(db, 'exported-client@example.com');
    const other = await createSignedInUser(db, 'another-exported-client@example.com');
    const outsider = 'given-an-archive-by-the-progress-service@example.com';
    const { S3_ENDPOINT, S3_BUCKET } = loadConfig(notifierEnv, stack.env);
    const archiveOf = (userId: string) => `${S3_ENDPOINT.replace(/\/$/, '')}/${S3_BUCKET}/${exportPrefix(userId)}${randomUUID()}.zip?X-Amz-Signature=abc`;
    const exportReady = async (userId: string, email: string, archiveOwner: string) => ({
      userId,
      email,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      sealed: await sealer.seal('data-export-ready', email, { downloadUrl: archiveOf(archiveOwner) }),
    });
    await queueAsItsProducer('data-export-ready', 'export-to-an-outsider', await exportReady(client.id, outsider, client.id));
    await queueAsItsProducer('data-export-ready', 'export-of-another-client', await exportReady(client.id, client.email, other.id));

    expect(await failedReason(QUEUES.mail, 'export-to-an-outsider')).toEqual({
      reason: "data export e-mail not sent: this is not the address of the client's account",
      attempts: 1,
    });
    expect(await failedReason(QUEUES.mail, 'export-of-another-client')).toEqual({
      reason: "the e-mail's link is not to the client's own archive in the product's storage (S3_ENDPOINT, S3_BUCKET)",
      attempts: 1,
    });
    await untilIdle(stack);
    expect([...mailsTo(outsider), ...mailsTo(client.email)]).toEqual([]);
  });

  it("sends an admin's approved e-mail to an investor once, however many deliveries a compromised investor-service queues with it", async () => {
    const keys = developmentSigningKeys();
    const chosen = 'investor-mailed-once@example.com';
    const approvedText = { subject: 'Our second year', body: 'Thank you for staying with Spark.' };
    const approval = signedCampaignApproval(keys, { emails: [chosen], ...approvedText });
    const data = {
      campaignId: randomUUID(),
      email: chosen,
      approval: { approvedAt: approval.approvedAt, signature: approval.signatures[chosen] ?? '' },
      sealed: await sealer.seal('investor-email', chosen, approvedText),
    };
    // As a compromised investor-service queues them: the approved e-mail under one delivery id after another.
    for (const deliveryId of [randomUUID(), randomUUID(), randomUUID()]) {
      const job = { queue: QUEUES.mail, name: 'investor-email', data: { ...data, deliveryId } } as JobRequest;
      await jobs.queue(QUEUES.mail).add('investor-email', signedJobData(keys, job, deliveryId), { jobId: deliveryId });
    }

    await untilIdle(stack);
    expect(mailsTo(chosen)).toHaveLength(1);
  });

  it("sends a visitor's confirmation and the team's alert once, however many jobs a compromised leads-service queues with their submission", async () => {
    const email = 'confirmed-once@example.com';
    const lead = await submittedLead(email);
    // The visitor's own e-mails, signed again under new job ids.
    for (const copy of ['1', '2']) {
      await queueAsItsProducer('lead-confirmation', `confirmation-resent-${copy}`, lead.confirmation.payload);
      await queueAsItsProducer('lead-alert', `alert-resent-${copy}`, lead.alert.payload);
    }

    await untilIdle(stack);
    expect(mailsTo(email)).toHaveLength(1);
    expect(teamAlertsAbout(email)).toHaveLength(1);
  });

  it("refuses a producer's job copied under another job id", async () => {
    const email = 'copied-confirmation@example.com';
    const original = await jobs.queue(QUEUES.mail).getJob((await submittedLead(email)).confirmation.id);
    expect(original?.finishedOn).toBeDefined();

    await jobs.queue(QUEUES.mail).add('lead-confirmation', original?.data, { jobId: `copy-of-${original?.id}` });
    expect(await failedReason(QUEUES.mail, `copy-of-${original?.id}`)).toEqual({ reason: expect.stringMatching(/not signed by leads/), attempts: 1 });
    await untilIdle(stack);
    expect(mailsTo(email)).toHaveLength(1);
  });
});
