import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

/** The npm packages a module loads, in a fresh Node process as the app would load it. */
function packagesLoadedBy(modulePath: string): string[] {
  const script = `
    require(${JSON.stringify(join(root, modulePath))});
    const names = Object.keys(require.cache).map((file) => (file.match(/node_modules\\/((@[^/]+\\/)?[^/]+)\\//) || [])[1]);
    process.stdout.write(JSON.stringify([...new Set(names.filter(Boolean))]));`;
  return JSON.parse(execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { cwd: root, encoding: 'utf8' })) as string[];
}

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

  it('gets its process plumbing from @spark/runtime without the service stack (TypeORM, pg, BullMQ)', () => {
    const loaded = packagesLoadedBy('libs/runtime/src/index.ts');
    for (const heavy of ['typeorm', 'pg', 'bullmq']) expect(loaded).not.toContain(heavy);
  }, 60_000);
});
