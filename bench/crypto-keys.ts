// `npm run build:node && node dist/bench/crypto-keys.js`: what Node's cipher and HMAC constructors cost when handed
// the key as a Buffer, against a KeyObject made from the same bytes. The request ledger seals each command's outcome
// with a key of its own, so it pays the constructor once per command.
import { createCipheriv, createHash, createHmac, createSecretKey, hash, randomBytes } from 'node:crypto';

const rounds = Number(process.env.BENCH_ROUNDS ?? 50_000);
const keyBytes = createHash('sha256').update('bench').digest();
const iv = randomBytes(12);
const outcome = JSON.stringify({ lead: { id: '6f1c1f4e-3c55-4b0a-9d7e-0c6a8d2c1f11', email: 'ada@example.com' }, challengeToken: 'x'.repeat(43) });

const ways: Record<string, (i: number) => unknown> = {
  'AES-256-GCM cipher, Buffer key': () => createCipheriv('aes-256-gcm', keyBytes, iv).update(outcome, 'utf8'),
  'AES-256-GCM cipher, KeyObject made each time': () => createCipheriv('aes-256-gcm', createSecretKey(keyBytes), iv).update(outcome, 'utf8'),
  'HMAC-SHA-256, Buffer key': () => createHmac('sha256', keyBytes).update(outcome).digest(),
  'HMAC-SHA-256, KeyObject made each time': () => createHmac('sha256', createSecretKey(keyBytes)).update(outcome).digest(),
  'SHA-256, createHash().update().digest()': (i) => createHash('sha256').update(`request:${i}`).digest(),
  'SHA-256, hash()': (i) => hash('sha256', `request:${i}`, 'buffer'),
};

for (const pass of ['warm-up', 'measured']) {
  for (const [name, run] of Object.entries(ways)) {
    const started = process.cpuUsage();
    for (let i = 0; i < rounds; i++) run(i);
    const { user, system } = process.cpuUsage(started);
    if (pass === 'measured') console.log(`${name}: ${((user + system) / rounds).toFixed(2)} µs of CPU per call (${rounds} calls)`);
  }
}
