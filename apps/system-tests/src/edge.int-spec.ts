import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorBodySchema } from '@spark/contracts';
import { eventually, freePort } from '@spark/testing';
import { z } from 'zod';
import { authService } from '../../auth-service/src/service';
import { startGateway } from '../../gateway/src/main';
import { type InProcessStack, startInProcessStack } from './in-process-stack';

const PUBLIC_URL = 'http://spark.test';
const S3_ORIGIN = 'http://127.0.0.1:4599';

// A built SPA in miniature: a shell and one prerendered page, each with inline code of its own.
const shellScript = 'window.__shellBooted = true;';
const pageScript = 'document.documentElement.dataset.prerendered = "yes";';
function writeWebDist(): string {
  const root = mkdtempSync(join(tmpdir(), 'spark-edge-web-'));
  mkdirSync(join(root, 'prerendered'));
  writeFileSync(join(root, 'index.html'), `<!doctype html><html><head><script>${shellScript}</script></head><body><div id="root"></div></body></html>`);
  writeFileSync(join(root, 'prerendered', 'pages.json'), JSON.stringify({ '/': 'home.html' }));
  writeFileSync(
    join(root, 'prerendered', 'home.html'),
    `<!doctype html><html><head><style>body{margin:0}</style><script type="module">${pageScript}</script></head><body><h1>Spark</h1></body></html>`,
  );
  return root;
}
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The directives of a Content-Security-Policy header, by name. */
const directives = (header: string | null) =>
  Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;

describe('the public edge of the gateway', () => {
  let stack: InProcessStack;
  let webDist: string;
  const fastifyWarnings: string[] = [];

  beforeAll(async () => {
    webDist = writeWebDist();
    // Fastify warns through process.emitWarning; a 'warning' listener here would not hear it under Jest.
    const emitWarning = jest.spyOn(process, 'emitWarning');
    try {
      stack = await startInProcessStack({
        services: [authService],
        withNotifier: false,
        env: { PUBLIC_URL, WEB_DIST: webDist, S3_ENDPOINT: `${S3_ORIGIN}/`, S3_BUCKET: 'spark-files', S3_LOG_BUCKET: 'spark-log' },
      });
    } finally {
      fastifyWarnings.push(...emitWarning.mock.calls.filter(([, type]) => String(type) === 'FastifyWarning').map(([message]) => String(message)));
      emitWarning.mockRestore();
    }
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(webDist, { recursive: true, force: true });
  });

  // An operator reads every warning at start as something to act on.
  it('starts without a warning from Fastify', () => {
    expect(fastifyWarnings).toEqual([]);
  });

  const post = (path: string, init: { body?: RequestInit['body']; headers?: Record<string, string> } = {}) =>
    fetch(`${stack.baseUrl}${path}`, { method: 'POST', ...init });
  const errorOf = async (response: Response) => errorBodySchema.parse(await response.json());

  describe('state-changing requests take JSON only (login CSRF)', () => {
    it.each([
      ['a urlencoded form', 'application/x-www-form-urlencoded', 'token=abcdefghijklmnopqrstuvwxyz'],
      ['a text/plain form', 'text/plain', '{"token":"abcdefghijklmnopqrstuvwxyz"}'],
      [
        'a multipart form outside the upload routes',
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc\r\n--x--\r\n',
      ],
    ])('answers %s sent to /api/auth/redeem with 415', async (_name, contentType, body) => {
      const response = await post('/api/auth/redeem', { body, headers: { 'content-type': contentType } });
      expect(response.status).toBe(415);
      expect(await errorOf(response)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send this request as JSON (Content-Type: application/json).' });
    });

    it('answers a body without a content type with 415, on any state-changing method', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const response = await fetch(`${stack.baseUrl}/api/auth/user`, { method, body: new Blob(['{"full_name":"x"}']) });
        expect([method, response.status]).toEqual([method, 415]);
      }
    });

    it('asks for multipart on an upload route', async () => {
      const response = await post('/api/log/images', { body: 'file=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.status).toBe(415);
      expect((await errorOf(response)).message).toBe('Send the file as multipart/form-data.');
    });

    it('lets JSON through, multipart through on an upload route, and a bodyless POST without a content type', async () => {
      const json = await post('/api/auth/redeem', {
        body: JSON.stringify({ token: 'abcdefghijklmnopqrstuvwxyz' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(json.status).toBe(401);
      const form = new FormData();
      form.append('file', new Blob(['x']), 'x.png');
      expect((await post('/api/log/images', { body: form })).status).toBe(401);
      expect((await post('/api/auth/sign-out')).status).toBe(204);
    });
  });

  describe('cross-site requests (Origin / Sec-Fetch-Site)', () => {
    it.each([
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
      ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site', origin: 'http://other.spark.test' }],
      ['an Origin of another site', { origin: 'https://evil.example' }],
      ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ])('refuses %s on the cookie routes and other state-changing routes with 403', async (_name, headers) => {
      for (const path of ['/api/auth/redeem', '/api/auth/refresh', '/api/auth/sign-out', '/api/leads']) {
        const response = await post(path, { body: '{}', headers: { 'content-type': 'application/json', ...headers } });
        expect([path, response.status]).toEqual([path, 403]);
        expect((await errorOf(response)).message).toBe('This request came from another site, so it was refused. Open Spark itself and try again.');
        expect(response.headers.getSetCookie()).toEqual([]);
      }
    });

    it('accepts same-origin browsers and clients that send neither header', async () => {
      const refresh = (headers: Record<string, string>) => post('/api/auth/refresh', { headers: { cookie: `spark_refresh=${'x'.repeat(43)}`, ...headers } });
      expect((await refresh({ 'sec-fetch-site': 'same-origin', origin: PUBLIC_URL })).status).toBe(401);
      expect((await refresh({ origin: PUBLIC_URL })).status).toBe(401);
      expect((await refresh({})).status).toBe(401);
      // A navigation the person started (typed or bookmarked) is not a cross-site request.
      expect((await refresh({ 'sec-fetch-site': 'none' })).status).toBe(401);
    });
  });

  describe('security headers', () => {
    const expectStrictPolicy = (header: string | null) => {
      const policy = directives(header);
      expect(policy['default-src']).toEqual(["'self'"]);
      // One policy for every page: the inline scripts of all of them, nothing else inline.
      expect(policy['script-src']?.sort()).toEqual(["'self'", sha256(shellScript), sha256(pageScript)].sort());
      expect(policy['object-src']).toEqual(["'none'"]);
      expect(policy['base-uri']).toEqual(["'none'"]);
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(policy['form-action']).toEqual(["'self'"]);
      expect(policy['worker-src']).toEqual(["'self'"]);
      expect(policy['manifest-src']).toEqual(["'self'"]);
      // Signed URLs are path-style: the origin alone would admit every bucket on it, anyone's.
      expect(policy['connect-src']).toEqual(["'self'", `${S3_ORIGIN}/spark-files/incoming/`]);
      expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', `${S3_ORIGIN}/spark-files/`, `${S3_ORIGIN}/spark-log/`]);
      expect(policy['media-src']).toEqual(["'self'", 'blob:', `${S3_ORIGIN}/spark-files/`]);
      expect(policy['frame-src']).toEqual(["'self'", `${S3_ORIGIN}/spark-files/`]);
      expect(policy['upgrade-insecure-requests']).toBeUndefined();
    };

    it('sends a strict CSP allowing the inline code of the prerendered page and of the SPA shell by hash', async () => {
      const page = await fetch(`${stack.baseUrl}/`);
      expect(await page.text()).toContain('<h1>Spark</h1>');
      expectStrictPolicy(page.headers.get('content-security-policy'));
      const shell = await fetch(`${stack.baseUrl}/app/some/route`);
      expect(await shell.text()).toContain('<div id="root">');
      expectStrictPolicy(shell.headers.get('content-security-policy'));
    });

    it('sends nosniff, a referrer policy and no HSTS over http, on pages and API answers alike', async () => {
      for (const path of ['/', '/interest', '/api/auth/user', '/health/live']) {
        const response = await fetch(`${stack.baseUrl}${path}`);
        expect([path, response.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
        expect([path, response.headers.get('referrer-policy')]).toEqual([path, 'strict-origin-when-cross-origin']);
        expect([path, response.headers.get('content-security-policy')]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
        expect(response.headers.get('strict-transport-security')).toBeNull();
      }
    });

    it('sends them on the answers the cross-site and content-type checks give before any route runs', async () => {
      const crossSite = await post('/api/leads', { body: '{}', headers: { 'content-type': 'application/json', origin: 'https://evil.example' } });
      const form = await post('/api/leads', { body: 'email=a%40example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      for (const [refusal, response] of [
        ['cross-site', crossSite],
        ['form body', form],
      ] as const) {
        expect([refusal, response.status, response.headers.get('x-content-type-options')]).toEqual([refusal, refusal === 'cross-site' ? 403 : 415, 'nosniff']);
        expect([refusal, response.headers.get('content-security-policy')]).toEqual([refusal, expect.stringContaining("frame-ancestors 'none'")]);
      }
    });

    it('keeps /magic-link-auth out of referrers and caches', async () => {
      const response = await fetch(`${stack.baseUrl}/magic-link-auth?token=abc`);
      expect(response.status).toBe(200);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    // A shared computer's disk cache would otherwise keep a person's answers (notes, signed file links) after sign-out.
    it('keeps API answers out of caches, and leaves the pages theirs', async () => {
      const answers = [
        await post('/api/auth/refresh', { body: '{}', headers: { 'content-type': 'application/json', cookie: 'spark_refresh=unknown' } }),
        await fetch(`${stack.baseUrl}/api/auth/user`),
        await fetch(`${stack.baseUrl}/api/no-such-route`),
      ];
      expect(answers.map((answer) => [answer.status, answer.headers.get('cache-control')])).toEqual([
        [401, 'no-store'],
        [401, 'no-store'],
        [404, 'no-store'],
      ]);
      expect((await fetch(`${stack.baseUrl}/`)).headers.get('cache-control')).toBe('no-cache');
    });

    // The id ties every log line of a request together and is stored in its audit event: a caller must not pick it.
    it("makes each request's id itself, whatever X-Request-Id a caller sends", async () => {
      const ids: (string | null)[] = [];
      for (let call = 0; call < 2; call++) {
        const response = await fetch(`${stack.baseUrl}/api/auth/user`, { headers: { 'x-request-id': 'chosen-by-caller-0001' } });
        ids.push(response.headers.get('x-request-id'));
      }
      expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(ids[1]).not.toBe(ids[0]);
    });

    it('sends HSTS and upgrades insecure requests when PUBLIC_URL is https', async () => {
      const https = await startGateway({ ...stack.env, PUBLIC_URL: 'https://spark.example.com' });
      try {
        const response = await fetch(`${https.url.replace('[::1]', '127.0.0.1')}/`);
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
        expect(directives(response.headers.get('content-security-policy'))['upgrade-insecure-requests']).toEqual([]);
      } finally {
        await https.stop();
      }
    });
  });

  describe('operator endpoints live on the internal port only', () => {
    it('answers 404 for /metrics and /api/docs on the public port', async () => {
      for (const path of ['/metrics', '/api/docs', '/api/docs/openapi.json']) {
        expect([path, (await fetch(`${stack.baseUrl}${path}`)).status]).toEqual([path, 404]);
      }
    });

    it('serves metrics, the OpenAPI document and health on HEALTH_PORT', async () => {
      const internalPort = await freePort();
      const gateway = await startGateway({ ...stack.env, HEALTH_PORT: String(internalPort) });
      try {
        const internal = `http://127.0.0.1:${internalPort}`;
        await fetch(`${gateway.url.replace('[::1]', '127.0.0.1')}/health/live`);
        await eventually(
          async () =>
            /^http_request_duration_seconds_count\{app="gateway",method="GET",route="\/health\/live",status="200"\} 1$/m.test(
              await (await fetch(`${internal}/metrics`)).text(),
            ),
          5000,
          'the request in the metrics',
        );
        const document = z
          .object({ paths: z.record(z.string(), z.record(z.string(), z.object({ requestBody: z.unknown().optional() }))) })
          .parse(await (await fetch(`${internal}/api/docs/openapi.json`)).json());
        expect(document.paths['/api/leads']?.post?.requestBody).toBeDefined();
        expect(Object.keys(document.paths)).toContain('/api/auth/redeem');
        expect(await (await fetch(`${internal}/api/docs`)).text()).toContain('/api/docs/openapi.json');
        expect((await fetch(`${internal}/health/ready`)).status).toBe(200);
      } finally {
        await gateway.stop();
      }
    });
  });
});
