// `npm run create-user -- --email EMAIL --role admin|coach|client [--name "Full Name"]`: creates or
// updates a user in the auth schema (through the auth-service's own repository) and prints how to
// sign in. This is how the first admin exists.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { authEnv, loadConfig } from '@spark/config';
import { emailSchema, userRoleSchema } from '@spark/contracts';
import { ensureDatabase, openMigrated } from '@spark/persistence';
import { authMigrations } from '../apps/auth-service/src/migrations';
import { UsersRepository } from '../apps/auth-service/src/tooling';

const usage = 'Usage: npm run create-user -- --email EMAIL --role admin|coach|client [--name "Full Name"]';

async function createUser() {
  const { values } = parseArgs({ options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } } });
  const email = emailSchema.safeParse(values.email);
  const role = userRoleSchema.safeParse(values.role);
  if (!email.success || !role.success) {
    console.error(
      `${email.success ? '' : `--email: ${email.error.issues[0]?.message}\n`}${role.success ? '' : `--role: ${role.error.issues[0]?.message}\n`}${usage}`,
    );
    process.exit(2);
  }
  const config = loadConfig(authEnv);
  await ensureDatabase(config.DATABASE_URL);
  const dataSource = await openMigrated({ url: config.DATABASE_URL, schema: 'auth', migrations: authMigrations, applicationName: 'create-user' });
  try {
    const user = await new UsersRepository(dataSource).upsertWithRole({
      id: randomUUID(),
      email: email.data,
      role: role.data,
      fullName: values.name?.trim() || null,
    });
    const signIn = new URL(role.data === 'client' ? '/signin' : '/signin?product=coach', config.PUBLIC_URL);
    console.log(`${user.created ? 'Created' : 'Updated'} ${user.role} ${user.email} (id ${user.id}).`);
    console.log(`Sign in at ${signIn.toString()} with this e-mail: a one-time link (valid 1 hour) and a 6-digit code arrive by e-mail.`);
    console.log('Locally (npm start) every e-mail lands in the mailbox at http://localhost:1080.');
  } finally {
    await dataSource.destroy();
  }
}

createUser().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
