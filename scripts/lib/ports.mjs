// The ports a local stack listens on: read from the variables that name them, and checked free
// before anything starts, so a taken port is named with the variable that moves it.
import { createServer } from 'node:net';
import { appProcesses } from './apps.mjs';

export const DEFAULT_PORTS = { gateway: 8080, smtp: 1025, mailboxWeb: 1080, s3: 4569 };

/** The variable that sets each of DEFAULT_PORTS under `npm start`. */
export const PORT_VARIABLES = { gateway: 'PORT', smtp: 'MAILBOX_SMTP_PORT', mailboxWeb: 'MAILBOX_WEB_PORT', s3: 'S3_PORT' };

/** DEFAULT_PORTS overridden by the variables set in `env`; throws a message naming a bad one. */
export function portsFromEnvironment(env, replicas = 1) {
  const highestHealthOffset = Math.max(...appProcesses(0, replicas).map((app) => app.healthPort));
  const ports = { ...DEFAULT_PORTS };
  for (const [key, variable] of Object.entries(PORT_VARIABLES)) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    const port = Number(text);
    // The gateway's port is followed by the apps' internal ports (+1 … +8, and more with replicas).
    const highest = key === 'gateway' ? 65535 - highestHealthOffset : 65535;
    if (!Number.isInteger(port) || port < 1 || port > highest) throw new Error(`${variable} must be a port number from 1 to ${highest}, not "${text}".`);
    ports[key] = port;
  }
  return ports;
}

/**
 * Every port the stack will listen on, each with what uses it and the variable that moves it. The
 * mailbox and S3 ports only when the stack starts them (no SMTP_URL / S3_ENDPOINT in `env`).
 */
export function plannedPorts(ports, env, replicas = 1) {
  const planned = [{ port: ports.gateway, use: 'gateway', variable: PORT_VARIABLES.gateway }];
  for (const app of appProcesses(ports.gateway, replicas)) {
    const offset = app.healthPort - ports.gateway;
    planned.push({ port: app.healthPort, use: `${app.name} internal port, PORT+${offset}`, variable: PORT_VARIABLES.gateway });
  }
  if (!env.SMTP_URL) {
    planned.push({ port: ports.smtp, use: 'mailbox SMTP', variable: PORT_VARIABLES.smtp });
    planned.push({ port: ports.mailboxWeb, use: 'mailbox web', variable: PORT_VARIABLES.mailboxWeb });
  }
  if (!env.S3_ENDPOINT) planned.push({ port: ports.s3, use: 'S3', variable: PORT_VARIABLES.s3 });
  return planned;
}

/** Whether nothing listens on `port`, on any address (IPv4 or IPv6). */
export function isPortFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Throws one line per port that is taken or planned twice: "Port 8080 is taken (gateway). Set PORT to another port." */
export async function assertPortsFree(planned) {
  const problems = [];
  const seen = new Map();
  for (const entry of planned) {
    const first = seen.get(entry.port);
    if (first) problems.push(`Port ${entry.port} is planned twice (${first.use}; ${entry.use}). Set ${entry.variable} to another port.`);
    else seen.set(entry.port, entry);
  }
  for (const entry of seen.values()) {
    if (!(await isPortFree(entry.port))) problems.push(`Port ${entry.port} is taken (${entry.use}). Set ${entry.variable} to another port.`);
  }
  if (problems.length) throw new Error(problems.join('\n'));
}
