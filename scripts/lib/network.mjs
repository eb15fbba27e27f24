// Small waits on TCP ports and HTTP endpoints.
import { Socket } from 'node:net';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something accepts TCP connections on host:port within a second. */
export function portAnswers(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = new Socket();
    const finish = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('timeout', () => finish(false));
    socket.connect(port, host);
  });
}

/**
 * Polls `probe` until it returns true. Fails after `timeoutMs`, or at once when `process` (a
 * handle from processes.mjs) exits first, naming it.
 */
export async function waitUntil(label, probe, { timeoutMs = 60_000, process, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process && process.exitCode !== undefined) {
      throw new Error(`${label}: ${process.name} exited with code ${process.exitCode} before it was ready`);
    }
    if (await probe()) return;
    await sleep(intervalMs);
  }
  throw new Error(`${label}: not ready after ${Math.round(timeoutMs / 1000)} s`);
}

export const waitForPort = (label, port, options) => waitUntil(label, () => portAnswers(port), options);

/** Whether GET `url` answers 2xx within two seconds. */
export async function httpOk(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

export const waitForHttp = (label, url, options) => waitUntil(label, () => httpOk(url), options);
