// `npm run job-keys`: prints a fresh `JOB_KEYS_<APP>=…` line for each app that queues or runs signed jobs, for the
// Kubernetes Secret (deploy/base/secret.example.env). `npm run job-keys -- --compose` prints one `JOB_KEYS=…` line
// holding every key, for docker-compose's .env, where every app reads the same variables.
import { parseArgs } from 'node:util';
import { freshJobKeys } from '@spark/config';

const { values } = parseArgs({ options: { compose: { type: 'boolean', default: false } } });
const keys = freshJobKeys();
if (values.compose) {
  const everyKey = new Set(keys.flatMap(({ value }) => value.split(',')));
  console.log(`JOB_KEYS=${[...everyKey].join(',')}`);
} else {
  for (const { app, value } of keys) console.log(`JOB_KEYS_${app.toUpperCase()}=${value}`);
}
