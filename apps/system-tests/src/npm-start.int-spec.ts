// `npm start` as a developer or a supervisor runs it: the real entry (package.json's start script) on
// ports named by its variables, a taken port refused by name, and SIGTERM to npm leaving nothing behind.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase, testRedisUrl } from '@spark/testing';
import { processesWithMarker, root, start, testStack, waitFor } from './npm-start-harness';

// Beside `npm start` (8080), the browser tests (18080) and the benchmarks' stacks (28080, 38080), and below
// Linux's ephemeral range (32768–60999), so no other test's outgoing connection holds one of them.
const PORTS = { PORT: 21080, MAILBOX_SMTP_PORT: 2126, MAILBOX_WEB_PORT: 2181, S3_PORT: 21569 };
const INTERNAL_PORTS = Array.from({ length: 8 }, (_, index) => PORTS.PORT + 1 + index);
const ALL_PORTS = [...Object.values(PORTS), ...INTERNAL_PORTS];
const BUILT = ['dist/apps/gateway/src/main.js', 'dist/web/index.html', 'dist/scripts/create-user.js'];

function isPortFree(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const server = createServer();
    server.once('error', () => answer(false));
    server.listen({ port, exclusive: true }, () => server.close(() => answer(true)));
  });
}

describe('npm start', () => {
  let database: TestDatabase;
  let environment: NodeJS.ProcessEnv;
  const stack = testStack('npm-start', PORTS);

  beforeAll(async () => {
    const missing = BUILT.filter((path) => !existsSync(join(root, path)));
    if (missing.length) throw new Error(`not built (${missing.join(', ')}): run \`npm run build\` first (npm test does)`);
    database = await createTestDatabase();
    environment = stack.environment({ DATABASE_URL: database.url, REDIS_URL: await testRedisUrl() });
  });

  afterAll(async () => {
    for (const pid of processesWithMarker(stack.marker)) process.kill(pid, 'SIGKILL');
    await database?.drop();
  });

  it('refuses a taken port by its number, its use and the variable that moves it, before building', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((listening) => squatter.listen(PORTS.PORT, listening));
    try {
      // No --skip-build: the check comes first, so nothing is built or started.
      const run = start(process.execPath, ['scripts/start.mjs'], environment);
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`Port ${PORTS.PORT} is taken (gateway). Set PORT to another port.`);
      expect(run.output()).not.toContain('building');
    } finally {
      await new Promise((closed) => squatter.close(closed));
    }
  });

  it('serves on PORT with e-mail links to it, and SIGTERM to npm stops every process it started', async () => {
    const run = start('npm', ['start', '--', '--skip-build'], environment);
    try {
      // The ready line and the address lines under it are separate writes: wait for the last one needed.
      const appLine = `app        http://localhost:${PORTS.PORT}`;
      await waitFor('npm start ready', () => run.output().includes(appLine) || run.child.exitCode !== null, 150_000);
      expect(run.output()).toMatch(/spark\S*\s+ready/);
      expect(run.output()).toContain(appLine);
      const page = await fetch(`http://127.0.0.1:${PORTS.PORT}/signin`);
      expect(page.status).toBe(200);

      const email = `npm-start-${randomBytes(3).toString('hex')}@example.com`;
      const created = start(process.execPath, ['dist/scripts/create-user.js', '--email', email, '--role', 'coach'], environment);
      expect(await created.exited).toBe(0);
      const asked = await fetch(`http://127.0.0.1:${PORTS.PORT}/api/auth/magic-link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://localhost:${PORTS.PORT}` },
        body: JSON.stringify({ email, product: 'spark' }),
      });
      expect(asked.status).toBe(202);
      let link: URL | undefined;
      await waitFor(
        'the sign-in e-mail in the mailbox',
        async () => {
          const mails = (await (await fetch(`http://127.0.0.1:${PORTS.MAILBOX_WEB_PORT}/email`)).json()) as { to: { address: string }[]; text?: string }[];
          const text = mails.find((mail) => mail.to.some((to) => to.address === email))?.text;
          const found = /Sign in: (\S+)/.exec(text ?? '')?.[1];
          link = found ? new URL(found) : undefined;
          return link !== undefined;
        },
        30_000,
      );
      expect(link?.origin).toBe(`http://localhost:${PORTS.PORT}`);
      expect((await fetch(new URL(link?.pathname ?? '/', `http://127.0.0.1:${PORTS.PORT}`))).status).toBe(200);
      expect(processesWithMarker(stack.marker).length).toBeGreaterThanOrEqual(11); // npm, node start.mjs, 8 apps, maildev, s3rver
    } finally {
      // What a supervisor or a CI timeout does: SIGTERM to the process it started, npm.
      run.child.kill('SIGTERM');
    }
    await run.exited;
    await waitFor('every process of the stack ended', () => processesWithMarker(stack.marker).length === 0, 30_000);
    for (const port of ALL_PORTS) expect(await isPortFree(port)).toBe(true);
  }, 240_000);
});
