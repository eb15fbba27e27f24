// Child processes of a local stack. Each child leads its own process group, so stopping it also
// stops whatever it forked (postgres backends, npm shims), and a terminal's Ctrl-C reaches only
// the parent, which then stops the children in order.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const colors = [36, 35, 33, 32, 34, 91, 92, 93, 94, 95, 96];
let nextColor = 0;

/** Every child started here, newest last; killed on any exit of the parent. */
const running = new Set();

process.on('exit', () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
});

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function pipeLines(stream, write) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', write);
}

/**
 * Where children's output goes: `{ console: true }` prints each line prefixed with the child's
 * name; `{ directory }` writes `<directory>/<name>.log` instead (quiet test runs).
 */
function attachOutput(child, name, output) {
  if (output.directory) {
    mkdirSync(output.directory, { recursive: true });
    const file = createWriteStream(join(output.directory, `${name}.log`), { flags: 'a' });
    child.stdout.pipe(file);
    child.stderr.pipe(file);
    return;
  }
  const color = colors[nextColor++ % colors.length];
  const prefix = process.stdout.isTTY ? `\x1b[${color}m${name.padEnd(17)}\x1b[0m│ ` : `${name.padEnd(17)}│ `;
  pipeLines(child.stdout, (line) => process.stdout.write(`${prefix}${line}\n`));
  pipeLines(child.stderr, (line) => process.stderr.write(`${prefix}${line}\n`));
}

/** Follows `child` in a handle with `name`, `pid`, `exited` (a promise of the exit code) and `stopSignal`. */
function track(child, name, command, stopSignal) {
  const handle = { name, pid: child.pid, stopSignal, exitCode: undefined };
  handle.exited = new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`${name}: could not start ${command}: ${error.message}\n`);
      running.delete(handle);
      handle.exitCode = 127;
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      running.delete(handle);
      handle.exitCode = code ?? (signal ? 128 : 1);
      resolve(handle.exitCode);
    });
  });
  if (child.pid) running.add(handle);
  return handle;
}

/**
 * Starts `command` in its own process group. The handle carries `name`, `pid`, `exited` (a
 * promise of the exit code) and `stopSignal` (what asks it to stop fast).
 */
export function startProcess(name, command, args, { env = process.env, cwd, output = { console: true }, stopSignal = 'SIGTERM' } = {}) {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const handle = track(child, name, command, stopSignal);
  if (child.pid) attachOutput(child, name, output);
  return handle;
}

/**
 * Runs a command to completion and rejects when it fails; `quiet` shows its output only then. It too
 * runs in a process group of its own that stopAllProcesses stops, so a stop in the middle of
 * `npm run build` also ends the build's every process.
 */
export async function runCommand(command, args, { env = process.env, cwd, quiet = false } = {}) {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] });
  const captured = [];
  child.stdout?.on('data', (chunk) => captured.push(chunk));
  child.stderr?.on('data', (chunk) => captured.push(chunk));
  const code = await track(child, command, command, 'SIGTERM').exited;
  if (code === 0) return;
  const detail = Buffer.concat(captured).toString().trim();
  throw new Error(`${command} ${args.join(' ')} exited with ${code}${detail ? `:\n${detail}` : ''}`);
}

/** Stops one child's process group: its stop signal first, SIGKILL after `graceMs`. */
export async function stopProcess(handle, graceMs = 8000) {
  if (handle.exitCode !== undefined) return;
  signalGroup(handle, handle.stopSignal);
  // Cleared once the child exits, so no timer keeps the parent (or jest) alive.
  const force = setTimeout(() => signalGroup(handle, 'SIGKILL'), graceMs);
  await handle.exited;
  clearTimeout(force);
}

/** Stops children newest first, so apps go before the databases they use; apps in parallel. */
export async function stopProcesses(handles) {
  const apps = handles.filter((handle) => handle.kind === 'app');
  await Promise.all(apps.map((handle) => stopProcess(handle)));
  for (const handle of handles.filter((handle) => handle.kind !== 'app').reverse()) await stopProcess(handle);
}

/** Stops every child still running, in the same order as stopProcesses. */
export const stopAllProcesses = () => stopProcesses([...running]);
