// `npm start`: builds, then brings the whole product up on this machine at http://localhost:8080.
// Ctrl-C stops every process it started. `--skip-build` reuses the existing dist/.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand, stopAllProcesses } from './lib/processes.mjs';
import { DEFAULT_PORTS, startStack } from './lib/stack.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const say = (message) => process.stdout.write(`\x1b[1mspark\x1b[0m  ${message}\n`);

let stack;
let stopping = false;
async function shutdown(signal) {
  if (stopping) process.exit(1); // a second Ctrl-C: the exit hook kills what is left
  stopping = true;
  say(`${signal}: stopping every process…`);
  // Also covers a Ctrl-C in the middle of starting, before the stack exists.
  await stopAllProcesses();
  say('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  if (!process.argv.includes('--skip-build')) {
    say('building (npm run build)…');
    await runCommand('npm', ['run', 'build'], { cwd: root });
  }
  stack = await startStack({ root, env: process.env, ports: DEFAULT_PORTS, log: say });
  const { urls } = stack;
  say('ready');
  say(`  app        ${urls.app}`);
  say(`  API docs   ${urls.apiDocs}   (internal port: never on the public one)`);
  say(`  metrics    ${urls.metrics}`);
  if (urls.mailbox) say(`  mailbox    ${urls.mailbox}   (every e-mail the product sends)`);
  if (urls.s3) say(`  S3         ${urls.s3}   (s3rver, access key S3RVER / S3RVER, data in .data/s3)`);
  say('Ctrl-C stops everything.');
  for (const child of stack.processes) {
    void child.exited.then((code) => {
      if (!stopping) say(`\x1b[31m${child.name} exited with code ${code}\x1b[0m; the rest keep running`);
    });
  }
} catch (error) {
  if (!stopping) {
    process.stderr.write(`\nnpm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
