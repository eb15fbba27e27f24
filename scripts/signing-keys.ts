// `npm run signing-keys`: prints a fresh `SIGNING_KEYS_<APP>=…` line for each app that signs or checks jobs or bus requests, for the
// Kubernetes Secret (deploy/base/secret.example.env). `npm run signing-keys -- --compose` prints one `SIGNING_KEYS=…` line
// holding every key, for docker-compose's .env, where every app reads the same variables.
import { parseArgs } from 'node:util';
import { freshSigningKeys } from '@spark/config';

const { values } = parseArgs({ options: { compose: { type: 'boolean', default: false } } });
const keys = freshSigningKeys();
if (values.compose) {
  const everyKey = new Set(keys.flatMap(({ value }) => value.split(',')));
  console.log(`SIGNING_KEYS=${[...everyKey].join(',')}`);
} else {
  for (const { app, value } of keys) console.log(`SIGNING_KEYS_${app.toUpperCase()}=${value}`);
}
