// `npm start`: builds, then brings the whole product up on this machine at http://localhost:8080
// (PORT, MAILBOX_SMTP_PORT, MAILBOX_WEB_PORT and S3_PORT move it; docs/operations.md).
// Ctrl-C, SIGTERM or SIGHUP stops every process it started, and so does the end of its parent
// (npm does not pass SIGTERM on). `--skip-build` reuses the existing dist/. `--replicas N` (or REPLICAS=N) runs
// N of every service, of the notifier and of the DITL worker, behind the one gateway.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertPortsFree, plannedPorts, portsFromEnvironment } from './lib/ports.mjs';
import { runCommand, stopAllProcesses } from './lib/processes.mjs';
import { startStack } from './lib/stack.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const say = (message) => process.stdout.write(`\x1b[1mspark\x1b[0m  ${message}\n`);
const PARENT_CHECK_MS = 500;

let stopping = false;
async function shutdown(reason) {
  if (stopping) process.exit(1); // a second Ctrl-C: the exit hook kills what is left
  stopping = true;
  say(`${reason}: stopping every process…`);
  // Also covers a stop in the middle of building or starting, before the stack exists.
  await stopAllProcesses();
  say('stopped');
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(signal));

// `kill <pid of npm start>` ends npm and its shell but not this process, which is then adopted by
// another: a changed parent means whoever started the stack is gone.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void shutdown('parent process ended');
}, PARENT_CHECK_MS).unref();

const REQUIRED_NODE_MAJOR = 24;
if (Number(process.versions.node.split('.')[0]) < REQUIRED_NODE_MAJOR) {
  say(`\x1b[33mNode ${process.version}: Spark needs Node ${REQUIRED_NODE_MAJOR} (README, "Node 24"); starting anyway\x1b[0m`);
}

/** `--replicas N` or REPLICAS: how many of each app but the gateway; 1 by default. */
function replicasWanted(argv, env) {
  const flag = argv.indexOf('--replicas');
  const text = flag === -1 ? env.REPLICAS : argv[flag + 1];
  if (text === undefined || text === '') return 1;
  const replicas = Number(text);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 8)
    throw new Error(`--replicas (or REPLICAS) must be a whole number from 1 to 8, not "${text}".`);
  return replicas;
}

try {
  const replicas = replicasWanted(process.argv, process.env);
  const ports = portsFromEnvironment(process.env, replicas);
  // Before the build, so a taken port is reported at once.
  await assertPortsFree(plannedPorts(ports, process.env, replicas));
  if (!process.argv.includes('--skip-build')) {
    say('building (npm run build)…');
    await runCommand('npm', ['run', 'build'], { cwd: root });
  }
  const env = {
    ...process.env,
    // One readable line per log entry for a person at a terminal; LOG_FORMAT=json keeps the JSON.
    LOG_FORMAT: process.env.LOG_FORMAT || 'pretty',
    // The apps write into a pipe; the colours are for this terminal.
    ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
  };
  const stack = await startStack({ root, env, ports, busPrefix: process.env.BUS_PREFIX || 'spark', log: say, replicas });
  const { urls } = stack;
  say(replicas === 1 ? 'ready' : `ready: ${replicas} replicas of every service, the notifier and the DITL worker`);
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
