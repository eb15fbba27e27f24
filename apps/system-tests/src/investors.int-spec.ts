import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  deckDownloadResponseSchema,
  errorBodySchema,
  investorCampaignSchema,
  investorPageSchema,
  type UserRole,
} from '@spark/contracts';
import { eventually, type SmtpSink, startSmtpSink } from '@spark/testing';
import { Client } from 'pg';
import { type InProcessStack, startInProcessStack } from './in-process-stack';
import { untilIdle } from './until-idle';

const JWT_SECRET = 'system-test-jwt-secret-investors-01';
const tokenFor = (role: UserRole) =>
  new JwtService({ secret: JWT_SECRET }).sign(
    { sub: randomUUID(), email: `${role}@spark.test`, role },
    { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, expiresIn: 600 },
  );

describe('investors: deck access codes and e-mail campaigns through the gateway', () => {
  let stack: InProcessStack;
  let smtp: SmtpSink;
  let db: Client;
  const admin = tokenFor('admin');
  const coach = tokenFor('coach');

  beforeAll(async () => {
    // This sink refuses one mailbox with 550, as a real server does for an unknown address.
    smtp = await startSmtpSink({ reject: ['bounce@investor.test'] });
    // The test plays the trusted proxy: the x-forwarded-for it sends is the client address.
    stack = await startInProcessStack({ redisDb: 15, env: { JWT_SECRET, SMTP_URL: smtp.url, TRUST_PROXY: '127.0.0.1' } });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
    await smtp.close();
  });

  const call = (method: string, path: string, body?: unknown, token?: string, ip = '203.0.113.1') =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        'x-forwarded-for': ip,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const addInvestor = async (email: string) => {
    const response = await call('POST', '/api/investors', { email }, admin);
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string };
  };
  const uploadDeck = async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n% the deck\n')], { type: 'application/pdf' }), 'deck.pdf');
    const response = await fetch(`${stack.baseUrl}/api/investors/deck/full`, { method: 'PUT', body: form, headers: { authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(200);
  };

  it('stores a deck request as an investor lead once, ignoring the duplicate', async () => {
    expect((await call('POST', '/api/investors/deck-requests', { email: 'Lead@Fund.test' })).status).toBe(202);
    expect((await call('POST', '/api/investors/deck-requests', { email: 'lead@fund.test ' })).status).toBe(202);
    const { rows } = await db.query(`SELECT email, interest FROM investor.investors WHERE email = 'lead@fund.test'`);
    expect(rows).toEqual([{ email: 'lead@fund.test', interest: 'Requested the full deck' }]);
  });

  const generateCode = async (investorId: string) => {
    const response = await call('POST', `/api/investors/${investorId}/access-code`, undefined, admin);
    expect(response.status).toBe(200);
    return (await response.json()) as { accessCode: string; expiresAt?: string };
  };
  const download = (email: string, accessCode: string, ip: string) => call('POST', '/api/investors/deck-download', { email, accessCode }, undefined, ip);
  const expectInvalidCode = async (response: Response) => {
    expect(response.status).toBe(403);
    expect(errorBodySchema.parse(await response.json()).message).toBe('Invalid access code. Please check your code and try again.');
  };

  it('stores only a hash of the code, shows it once, and refuses a second generation (reissue instead)', async () => {
    const investor = await addInvestor('codes@fund.test');
    const { accessCode } = await generateCode(investor.id);
    expect(accessCode).toMatch(/^SPARK(-[0-9A-Z]{4}){5}$/);
    const { rows } = await db.query(`SELECT * FROM investor.deck_access WHERE investor_id = $1`, [investor.id]);
    expect(JSON.stringify(rows)).not.toContain(accessCode);
    expect(JSON.stringify(rows)).not.toContain(accessCode.replaceAll('-', ''));
    const again = await call('POST', `/api/investors/${investor.id}/access-code`, undefined, admin);
    expect(again.status).toBe(409);
    const listed = investorPageSchema.parse(await (await call('GET', '/api/investors?limit=100', undefined, admin)).json());
    expect(JSON.stringify(listed)).not.toContain(accessCode);
  });

  it('binds a code to its investor: with any other e-mail it fails like a wrong code', async () => {
    await uploadDeck();
    const holder = await addInvestor('holder@fund.test');
    await addInvestor('other@fund.test');
    const { accessCode } = await generateCode(holder.id);
    await expectInvalidCode(await download('other@fund.test', accessCode, '203.0.113.40'));
    await expectInvalidCode(await download('stranger@fund.test', accessCode, '203.0.113.40'));
    expect((await download('holder@fund.test', accessCode, '203.0.113.40')).status).toBe(200);
  });

  it('expires a code 30 days after it was issued', async () => {
    await uploadDeck();
    const investor = await addInvestor('expiring@fund.test');
    const { accessCode, expiresAt } = await generateCode(investor.id);
    const thirtyDays = 30 * 24 * 3600_000;
    expect(Math.abs(new Date(expiresAt ?? 0).getTime() - Date.now() - thirtyDays)).toBeLessThan(60_000);
    expect((await download('expiring@fund.test', accessCode, '203.0.113.41')).status).toBe(200);
    await db.query(
      `UPDATE investor.deck_access SET issued_at = issued_at - interval '31 days', expires_at = expires_at - interval '31 days' WHERE investor_id = $1`,
      [investor.id],
    );
    const expired = await download('expiring@fund.test', accessCode, '203.0.113.41');
    expect(expired.status).toBe(403);
    expect(errorBodySchema.parse(await expired.json()).message).toBe('This access code has expired. Please ask us for a new one.');
  });

  it('reissues a code: the old one stops working, the new one works for 30 days and its count starts again', async () => {
    await uploadDeck();
    const investor = await addInvestor('reissue@fund.test');
    const first = await generateCode(investor.id);
    expect((await download('reissue@fund.test', first.accessCode, '203.0.113.42')).status).toBe(200);
    const reissued = await call('POST', `/api/investors/${investor.id}/access-code/reissue`, undefined, admin);
    expect(reissued.status).toBe(200);
    const second = (await reissued.json()) as { accessCode: string };
    expect(second.accessCode).not.toBe(first.accessCode);
    await expectInvalidCode(await download('reissue@fund.test', first.accessCode, '203.0.113.42'));
    expect((await download('reissue@fund.test', second.accessCode, '203.0.113.42')).status).toBe(200);
    const listed = investorPageSchema.parse(await (await call('GET', '/api/investors?limit=100', undefined, admin)).json());
    expect(listed.items.find((item) => item.id === investor.id)).toMatchObject({ accessCount: 1 });
    expect((await call('POST', `/api/investors/${randomUUID()}/access-code/reissue`, undefined, admin)).status).toBe(404);
  });

  it('answers a valid code with a one-hour download link that works, and counts the access', async () => {
    await uploadDeck();
    const investor = await addInvestor('download@fund.test');
    const { accessCode } = await generateCode(investor.id);
    const before = Date.now();
    const response = await call(
      'POST',
      '/api/investors/deck-download',
      { email: 'download@fund.test', accessCode: accessCode.toLowerCase() },
      undefined,
      '203.0.113.20',
    );
    expect(response.status).toBe(200);
    const { downloadUrl, expiresAt } = deckDownloadResponseSchema.parse(await response.json());
    const url = new URL(downloadUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(new Date(expiresAt).getTime() - before).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(new Date(expiresAt).getTime() - before).toBeLessThanOrEqual(3600_000 + 5000);
    expect(await (await fetch(downloadUrl)).text()).toContain('%PDF-1.4');
    const { rows } = await db.query(`SELECT access_count, accessed_at FROM investor.deck_access WHERE investor_id = $1`, [investor.id]);
    expect(rows[0].access_count).toBe(1);
    expect(rows[0].accessed_at).toBeInstanceOf(Date);
  });

  it('refuses a wrong or malformed code with "Invalid access code", and limits guesses per address', async () => {
    const wrong = await call(
      'POST',
      '/api/investors/deck-download',
      { email: 'x@fund.test', accessCode: 'SPARK-AAAA-AAAA-AAAA-AAAA-AAAA' },
      undefined,
      '203.0.113.30',
    );
    expect(wrong.status).toBe(403);
    expect(errorBodySchema.parse(await wrong.json()).message).toBe('Invalid access code. Please check your code and try again.');
    const malformed = await call('POST', '/api/investors/deck-download', { email: 'x@fund.test', accessCode: '1234' }, undefined, '203.0.113.30');
    expect(malformed.status).toBe(403);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push((await call('POST', '/api/investors/deck-download', { email: 'x@fund.test', accessCode: '1234' }, undefined, '203.0.113.30')).status);
    }
    expect(statuses.slice(0, 8).every((status) => status === 403)).toBe(true);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });

  it('reports a campaign with one refused recipient as sent n-1, failed 1, and dates the delivered ones', async () => {
    const emails = ['one@investor.test', 'two@investor.test', 'bounce@investor.test'];
    for (const email of emails) await addInvestor(email);
    const response = await call('POST', '/api/investors/emails', { emails, subject: 'Our progress', body: 'Hello investors.\n\nWe grew.' }, admin);
    expect(response.status).toBe(200);
    let campaign = investorCampaignSchema.parse(await response.json());
    for (let poll = 0; campaign.pending > 0 && poll < 100; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      campaign = investorCampaignSchema.parse(await (await call('GET', `/api/investors/emails/${campaign.id}`, undefined, admin)).json());
    }
    expect(campaign).toMatchObject({ total: 3, sent: 2, failed: 1, pending: 0, failedEmails: ['bounce@investor.test'] });
    expect(
      smtp.messages
        .filter((mail) => mail.subject === 'Our progress')
        .flatMap((mail) => mail.to)
        .sort(),
    ).toEqual(['one@investor.test', 'two@investor.test']);
    const page = investorPageSchema.parse(await (await call('GET', '/api/investors?limit=100', undefined, admin)).json());
    const lastEmail = Object.fromEntries(page.items.map((investor) => [investor.email, investor.lastEmailSentAt]));
    expect(lastEmail['one@investor.test']).toEqual(expect.any(String));
    expect(lastEmail['bounce@investor.test']).toBeNull();
  });

  it('sends a campaign sent again under its id (a retry after an error) once, and refuses that id for another text', async () => {
    const emails = ['retried-one@investor.test', 'retried-two@investor.test'];
    for (const email of emails) await addInvestor(email);
    const campaign = { campaignId: randomUUID(), emails, subject: 'Sent once', body: 'Hello again.' };
    const sent = async (body: object) => {
      const response = await call('POST', '/api/investors/emails', body, admin);
      return { status: response.status, answer: (await response.json()) as unknown };
    };

    const first = await sent(campaign);
    const again = await sent(campaign);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect([investorCampaignSchema.parse(first.answer).id, investorCampaignSchema.parse(again.answer).id]).toEqual([campaign.campaignId, campaign.campaignId]);
    const otherText = await sent({ ...campaign, body: 'Something else.' });
    expect({ status: otherText.status, code: errorBodySchema.parse(otherText.answer).code }).toEqual({ status: 409, code: 'CONFLICT' });

    await eventually(() => smtp.messages.filter((mail) => mail.subject === 'Sent once').length >= 2, 15_000, 'the campaign e-mails');
    await untilIdle(stack);
    expect(
      smtp.messages
        .filter((mail) => mail.subject === 'Sent once')
        .flatMap((mail) => mail.to)
        .sort(),
    ).toEqual(emails);
    const stored = await db.query(`SELECT count(*)::int AS n FROM investor.campaign_deliveries WHERE campaign_id = $1`, [campaign.campaignId]);
    expect(stored.rows[0].n).toBe(2);
  });

  it('gives a coach 403 and a visitor 401 on every admin investor route', async () => {
    const id = randomUUID();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/investors'],
      ['POST', '/api/investors', { email: 'c@fund.test' }],
      ['POST', `/api/investors/${id}/access-code`],
      ['POST', `/api/investors/${id}/access-code/reissue`],
      ['POST', '/api/investors/emails', { emails: ['one@investor.test'], subject: 's', body: 'b' }],
      ['GET', `/api/investors/emails/${id}`],
      ['PUT', '/api/investors/deck/full'],
      ['PUT', '/api/investors/deck/preview'],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await call(method, path, body, coach)).status]).toEqual([method, path, 403]);
      expect([method, path, (await call(method, path, body)).status]).toEqual([method, path, 401]);
    }
  });
});
