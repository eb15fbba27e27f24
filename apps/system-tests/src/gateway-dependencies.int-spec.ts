import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort, testRedisUrl } from '@spark/testing';

const root = join(__dirname, '../../..');

const MARKER = 'packages loaded: ';

/** The npm packages loaded once `run` (a script body that may await) has run in a fresh Node process. */
function packagesLoadedAfter(run: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const script = `
    const MARKER = ${JSON.stringify(MARKER)};
    (async () => {
      ${run}
      const names = Object.keys(require.cache).map((file) => (file.match(/node_modules\\/((@[^/]+\\/)?[^/]+)\\//) || [])[1]);
      process.stdout.write('\\n' + MARKER + JSON.stringify([...new Set(names.filter(Boolean))]) + '\\n');
    })();`;
  const output = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { cwd: root, env, encoding: 'utf8' });
  // The run's own logs may share stdout: the list is the marked line.
  const listed = output.split('\n').find((line) => line.startsWith(MARKER));
  return JSON.parse(listed?.slice(MARKER.length) ?? 'null') as string[];
}

/** The npm packages a module loads, as the app would load it. */
const packagesLoadedBy = (modulePath: string) => packagesLoadedAfter(`require(${JSON.stringify(join(root, modulePath))});`);

describe('what the gateway loads', () => {
  it('has no database driver or ORM: it talks to services over the bus only', () => {
    const loaded = packagesLoadedBy('apps/gateway/src/main.ts');
    expect(loaded).toContain('fastify');
    for (const heavy of ['typeorm', 'pg']) expect(loaded).not.toContain(heavy);
  }, 60_000);

  it('loads the queue board (Bull Board, BullMQ) and the S3 client only when a route uses them, not at start', () => {
    const loaded = packagesLoadedBy('apps/gateway/src/main.ts');
    for (const onDemand of ['@bull-board/api', '@bull-board/fastify', 'bullmq', '@aws-sdk/client-s3', 'sharp']) expect(loaded).not.toContain(onDemand);
  }, 60_000);

  it('once started, has loaded neither Fastify schema compilers (zod validates) nor the pretty log printer (it logs JSON)', async () => {
    const env = {
      ...process.env,
      REDIS_URL: await testRedisUrl(),
      BUS_PREFIX: 'gateway-dependencies',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      LOG_FORMAT: 'json',
    };
    const start = `const gateway = await require(${JSON.stringify(join(root, 'apps/gateway/src/main.ts'))}).startGateway(); await gateway.stop();`;
    const loaded = packagesLoadedAfter(start, env);
    expect(loaded).toContain('@nestjs/platform-fastify');
    for (const unused of ['@fastify/ajv-compiler', 'ajv', '@fastify/fast-json-stringify-compiler', 'pino-pretty']) expect(loaded).not.toContain(unused);
  }, 60_000);

  it('gets its process plumbing from @spark/runtime without the service stack (TypeORM, pg, BullMQ)', () => {
    const loaded = packagesLoadedBy('libs/runtime/src/index.ts');
    for (const heavy of ['typeorm', 'pg', 'bullmq']) expect(loaded).not.toContain(heavy);
  }, 60_000);
});
