import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { eventually, freePort, killAndWait } from '@spark/testing';

/** A browser's subscription at the stand-in, and the hash the stand-in names it by. */
export interface StandInDevice {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface PushStandIn {
  /** Its origin, for `PUSH_SERVICE_ORIGINS`. */
  url: string;
  /** A browser subscribed for the application server key `vapidPublicKey`. */
  newDevice(vapidPublicKey: string): Promise<StandInDevice>;
  /** Every notification the device was sent, in order. */
  pushesTo(clientHash: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/** A push service stand-in (web-push-testing) in its own process: it decrypts what it is sent and keeps it per device. */
export async function startPushStandIn(): Promise<PushStandIn> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const server = spawn(process.execPath, [join(__dirname, '..', '..', '..', 'node_modules', 'web-push-testing', 'src', 'bin', 'server.js'), String(port)], {
    stdio: 'ignore',
  });
  await eventually(
    async () => ((await fetch(`${url}/status`, { method: 'POST' }).catch(() => undefined))?.ok ? true : undefined),
    10_000,
    'the push service stand-in',
  );
  const post = async (path: string, body: unknown) =>
    (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  return {
    url,
    newDevice: async (vapidPublicKey) =>
      ((await post('/subscribe', { applicationServerKey: vapidPublicKey, userVisibleOnly: 'true' })) as { data: StandInDevice }).data,
    pushesTo: async (clientHash) => ((await post('/get-notifications', { clientHash })) as { data: { messages: unknown[] } }).data.messages,
    close: () => killAndWait([server]),
  };
}
