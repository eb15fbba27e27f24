import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventually } from '@spark/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { createUser, requestSignIn, uniqueEmail, useBrowser } from './support/auth-fixtures';
import { baseUrl, phoneViewport, takeCspViolations, uniqueIp, visitorContext } from './support/browser';
import { sentTo, waitForEmail } from './support/mailbox';
import { e2eLogDirectory } from './support/stack';

jest.setTimeout(90_000);

const browser = useBrowser();

async function openPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await visitorContext(browser(), { viewport: phoneViewport });
  return { context, page: await context.newPage() };
}

/** Another site: `localhost` is a different site from the stack's 127.0.0.1. */
async function serveOtherSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

describe('login CSRF', () => {
  it("refuses a plain HTML form on another site that posts the attacker's sign-in token to /api/auth/redeem, and sets no session cookie", async () => {
    const attackerEmail = uniqueEmail('csrf-attacker');
    await createUser(attackerEmail, 'client');
    const { token } = await requestSignIn(attackerEmail);
    // No JavaScript at all: the victim only presses a button on the other site.
    const otherSite = await serveOtherSite(
      `<!doctype html><title>Prize</title><form method="post" action="${baseUrl()}/api/auth/redeem"><input type="hidden" name="token" value="${token}"><button>Claim your prize</button></form>`,
    );
    const { context, page } = await openPage();
    try {
      await page.goto(otherSite.url);
      const [answer] = await Promise.all([
        page.waitForResponse(`${baseUrl()}/api/auth/redeem`),
        page.getByRole('button', { name: 'Claim your prize' }).click(),
      ]);
      expect(answer.status()).toBe(403);
      expect(await answer.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('another site') });
      expect((await context.cookies(baseUrl())).map((cookie) => cookie.name)).not.toContain('spark_refresh');
      // The link itself is unspent: its owner can still use it.
      expect((await page.request.post('/api/auth/redeem', { data: { token } })).status()).toBe(200);
    } finally {
      await context.close();
      otherSite.server.close();
    }
  });
});

describe('the Content-Security-Policy in Chromium', () => {
  it('blocks a script and an image from another origin injected into a page, and the browser tests see both', async () => {
    const { context, page } = await openPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The discard port on loopback: nothing would answer even if the policy let the requests out.
    await page.evaluate(
      "(() => { const script = document.createElement('script'); script.src = 'http://localhost:9/takeover.js'; document.head.append(script); const image = new Image(); image.src = 'http://localhost:9/pixel.png'; document.body.append(image); })()",
    );
    const expected = [`${baseUrl()}/: script-src-elem blocked http://localhost:9/takeover.js`, `${baseUrl()}/: img-src blocked http://localhost:9/pixel.png`];
    const seen: string[] = [];
    const reported = () => expected.filter((report) => seen.some((line) => line.startsWith(report)));
    for (let tries = 0; reported().length < expected.length && tries < 50; tries++) {
      await page.waitForTimeout(100);
      seen.push(...takeCspViolations());
    }
    expect(reported()).toEqual(expected);
    await context.close();
  });
});

/** The newest sign-in e-mail to `email`: the link as sent and the 6-digit code. */
async function signInMail(email: string): Promise<{ link: string; code: string }> {
  const mail = await waitForEmail((candidate) => sentTo(email)(candidate) && /sign-in link/i.test(candidate.subject));
  const link = /(https?:\/\/\S+\/magic-link-auth\S*)/.exec(mail.text ?? '')?.[1];
  const code = /code[^\d]*(\d{6})/i.exec(mail.text ?? '')?.[1];
  if (!link || !code) throw new Error(`the sign-in e-mail to ${email} has no link or code:\n${mail.text}`);
  return { link, code };
}

/** Every line every process of the e2e stack wrote so far. */
async function allLogLines(): Promise<{ file: string; line: string }[]> {
  const files = (await readdir(e2eLogDirectory)).filter((name) => name.endsWith('.log'));
  const lines = await Promise.all(files.map(async (file) => (await readFile(join(e2eLogDirectory, file), 'utf8')).split('\n').map((line) => ({ file, line }))));
  return lines.flat();
}

/** Waits until the gateway logged the request with this id, so every earlier line is on disk too. */
async function waitForGatewayLine(requestId: string): Promise<void> {
  await eventually(
    async () => (await readFile(join(e2eLogDirectory, 'gateway.log'), 'utf8')).includes(requestId),
    10_000,
    `the gateway to log request ${requestId}`,
  );
}

describe('secrets in logs', () => {
  it('a sign-in by link and one by code leave neither the token nor the code in any line of any process log', async () => {
    const linkUser = uniqueEmail('log-link');
    const codeUser = uniqueEmail('log-code');
    await createUser(linkUser, 'client');
    await createUser(codeUser, 'client');

    const byLink = await openPage();
    await byLink.page.goto('/signin');
    await byLink.page.getByLabel('Email address').fill(linkUser);
    await byLink.page.getByRole('button', { name: 'Send Magic Link' }).click();
    await byLink.page.getByText('Magic link sent!', { exact: true }).waitFor();
    const linkMail = await signInMail(linkUser);
    const token = /token=([\w-]+)/.exec(linkMail.link)?.[1] ?? '';
    expect(token).toMatch(/^[\w-]{20,}$/);
    await byLink.page.goto(linkMail.link);
    await byLink.page.getByRole('button', { name: `Continue as ${linkUser}` }).click();
    await byLink.page.getByRole('heading', { name: 'Welcome to Spark' }).waitFor();
    await byLink.context.close();

    const byCode = await openPage();
    await byCode.page.goto('/signin');
    await byCode.page.getByLabel('Email address').fill(codeUser);
    await byCode.page.getByRole('button', { name: 'Send Magic Link' }).click();
    await byCode.page.getByText('Magic link sent!', { exact: true }).waitFor();
    const { code } = await signInMail(codeUser);
    await byCode.page.getByRole('button', { name: /Use a code instead/ }).click();
    await byCode.page.getByLabel('Email address').fill(codeUser);
    await byCode.page.getByLabel('6-digit code').fill(code);
    await byCode.page.getByRole('button', { name: 'Sign in with code' }).click();
    await byCode.page.waitForURL((url) => url.pathname === '/onboarding');
    await byCode.context.close();

    // The link's token and the code used in a mistaken retry: both spent, both must stay out of the logs.
    const late = await fetch(`${baseUrl()}/api/auth/redeem?token=${token}&code=${code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
      body: JSON.stringify({ email: codeUser, code }),
    });
    expect(late.status).toBe(401);
    await waitForGatewayLine(late.headers.get('x-request-id') ?? 'missing');

    const codePattern = new RegExp(`(?<![\\w-])${code}(?![\\w-])`);
    const leaks = (await allLogLines()).filter(({ line }) => line.includes(token) || codePattern.test(line));
    expect(leaks).toEqual([]);
  });
});
