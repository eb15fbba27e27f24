// jest globalSetup for the browser tests: builds when needed, starts the product on e2e ports,
// and tells the tests where it is through E2E_BASE_URL, E2E_MAILBOX_URL and E2E_BUS_PREFIX.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { e2eLogDirectory, missingBuildOutputs, rememberStack, repositoryRoot, startE2eStack } from './stack';

async function ensureBuilt(): Promise<void> {
  const missing = await missingBuildOutputs();
  if (!existsSync(join(repositoryRoot, 'dist', 'web', 'index.html'))) missing.push('web');
  if (missing.length === 0) return;
  process.stdout.write(`\ne2e: not built (${missing.join(', ')}); running npm run build\n`);
  execFileSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'inherit' });
}

export default async function globalSetup(): Promise<void> {
  await ensureBuilt();
  rmSync(e2eLogDirectory, { recursive: true, force: true });
  const log = (message: string) => process.stdout.write(`e2e stack: ${message}\n`);
  process.stdout.write('\n');
  try {
    const stack = await startE2eStack(log);
    rememberStack(stack);
    process.env.E2E_BASE_URL = stack.urls.app;
    process.env.E2E_MAILBOX_URL = stack.urls.mailbox;
    // The queue dashboard's test puts jobs on the stack's own queues.
    process.env.E2E_BUS_PREFIX = stack.busPrefix;
    log(`ready at ${stack.urls.app} (logs in ${e2eLogDirectory})`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`the e2e stack did not start: ${reason}\nlogs: ${e2eLogDirectory}`, { cause: error });
  }
}
