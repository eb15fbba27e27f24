import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { authEnv, ditlEnv, type Env, gatewayEnv, investorEnv, migrateEnv, modelEnv, notifierEnv, progressEnv, serviceEnv } from '@spark/config';
import { type SigningApp, signingKeyPairsOf } from '@spark/contracts';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { overlays, render, workloadsOf } from './deploy-rendered';

const root = join(__dirname, '..', '..', '..');
const secretName = /SECRET|PASSWORD|TOKEN|API_KEY|PRIVATE_KEY|REDISCLI_AUTH/;
// `${NAME:?message}`: compose stops with the message when NAME is unset or empty.
const requiredVariable = /^\$\{[A-Z0-9_]+:\?[^}]+\}$/;
const interpolations = (text: string) => [...text.matchAll(/(?<!\$)\$\{([A-Za-z0-9_]+)([^}]*)\}/g)].map(([whole, name, rest]) => ({ whole, name, rest }));
const urlPassword = (text: string) => /^[a-z][a-z0-9+.-]*:\/\/[^/@:\s]*:([^@\s]*)@/i.exec(text)?.[1];

/** Every string value of the YAML documents in `file`, with its key and path, anchors and merges resolved. */
function stringsOf(file: string): { path: string; key: string; value: string }[] {
  const found: { path: string; key: string; value: string }[] = [];
  const walk = (node: unknown, path: string, key: string): void => {
    if (typeof node === 'string') found.push({ path, key, value: node });
    else if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${path}[${index}]`, key));
    else if (node && typeof node === 'object') for (const [name, value] of Object.entries(node)) walk(value, `${path}.${name}`, name);
  };
  for (const document of parseAllDocuments(readFileSync(join(root, file), 'utf8'), { merge: true })) {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
    walk(document.toJS(), file, '');
  }
  return found;
}

/** What is wrong with how `file` gives secrets their values; empty when every secret must come from outside. */
function secretDefaults(file: string, { interpolated }: { interpolated: boolean }): string[] {
  const problems: string[] = [];
  for (const { path, key, value } of stringsOf(file)) {
    if (secretName.test(key) && (!interpolated || !requiredVariable.test(value))) problems.push(`${path}: ${value}`);
    const password = urlPassword(value);
    if (password !== undefined && (!interpolated || !requiredVariable.test(password))) problems.push(`${path}: password in ${value}`);
    for (const variable of interpolations(value)) {
      if (secretName.test(variable.name) && !variable.rest.startsWith(':?')) problems.push(`${path}: ${variable.whole} has a default`);
    }
  }
  // A merged anchor repeats its values in every service; each problem is told once.
  return [...new Set(problems.map((problem) => problem.replace(/^[^:]*\.environment\./, 'environment.')))];
}

describe('secrets in the deployment files', () => {
  it('docker-compose.yml gives no secret a value: compose refuses to start until each is set', () => {
    expect(secretDefaults('docker-compose.yml', { interpolated: true })).toEqual([]);
  });

  it('the Kubernetes manifests hold no secret; they come from the Secret spark-secrets', () => {
    const manifests = readdirSync(join(root, 'deploy/base')).filter((name) => name.endsWith('.yaml'));
    expect(manifests.length).toBeGreaterThan(5);
    expect(manifests.flatMap((name) => secretDefaults(`deploy/base/${name}`, { interpolated: false }))).toEqual([]);
  });

  it('the Kubernetes Secret example holds only CHANGE_ME placeholders, which production refuses', () => {
    const lines = readFileSync(join(root, 'deploy/base/secret.example.env'), 'utf8').split('\n');
    const secrets = lines
      .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line))
      .filter((match) => match !== null && (secretName.test(match[1]) || urlPassword(match[2]) !== undefined));
    expect(secrets.length).toBeGreaterThan(3);
    for (const match of secrets) expect(`${match?.[1]}=${urlPassword(match?.[2] ?? '') ?? match?.[2]}`).toMatch(/=CHANGE_ME/);
  });

  // A placeholder left in is refused in production, so an optional key shipped as CHANGE_ME stops the apps that read it.
  it('the Secret example leaves every key a manifest marks optional commented out', () => {
    const example = readFileSync(join(root, 'deploy/base/secret.example.env'), 'utf8');
    const optional = new Set(
      workloadsOf(render('overlays/production')).flatMap(({ pod }) =>
        pod.containers.flatMap((container) =>
          (container.env ?? []).filter((variable) => variable.valueFrom?.secretKeyRef?.optional).map((variable) => variable.valueFrom?.secretKeyRef?.key ?? ''),
        ),
      ),
    );
    expect(optional.size).toBeGreaterThan(0);
    for (const key of optional) expect({ key, set: new RegExp(`^${key}=`, 'm').test(example) }).toEqual({ key, set: false });
  });

  it('the Redis ACL example holds only placeholder passwords, and no default user', () => {
    const users = readFileSync(join(root, 'deploy/redis/users.acl'), 'utf8').trim().split('\n');
    expect(users[0]).toBe('user default off');
    for (const user of users.slice(1)) expect(user).toMatch(/^user [a-z]+ on >CHANGE_ME_[A-Z]+ /);
  });

  it.each(overlays.map((overlay) => [overlay] as const))('in the %s overlay the gateway, which faces the internet, holds no database credential', (overlay) => {
    const gateway = workloadsOf(render(`overlays/${overlay}`)).find(({ app }) => app === 'gateway');
    const variables = gateway?.pod.containers.flatMap((container) => (container.env ?? []).map(({ name }) => name)) ?? [];
    expect(variables).toContain('JWT_SECRET');
    expect(variables).not.toContain('DATABASE_URL');
  });

  describe('each workload gets from the Secret only what its config schema reads', () => {
    // The schemas each process loads (bootApp loads serviceEnv in every service, then the service its own), and its
    // user: the Secret holds one REDIS_URL_<USER> per Redis ACL user and one DATABASE_URL_<USER> per PostgreSQL login,
    // given to the app as REDIS_URL and DATABASE_URL, and one SIGNING_KEYS_<USER> for each app that queues or runs signed
    // jobs, which it needs to start. The migration Job reads the owner's DATABASE_URL as it is.
    const production: Env = { NODE_ENV: 'production' };
    // The ditl-service runs its worker elsewhere (DITL_WORKER_ENABLED=false), and only the worker calls the model: a
    // process taken over must not hold a key it never uses.
    const modelVariables = Object.keys(modelEnv(production).shape);
    const workloads: Record<string, { schemas: ((env: Env) => z.ZodObject)[]; user?: string; unused?: string[] }> = {
      gateway: { schemas: [gatewayEnv], user: 'GATEWAY' },
      'auth-service': { schemas: [serviceEnv, authEnv], user: 'AUTH' },
      'leads-service': { schemas: [serviceEnv], user: 'LEADS' },
      'progress-service': { schemas: [serviceEnv, progressEnv], user: 'PROGRESS' },
      'investor-service': { schemas: [serviceEnv, investorEnv], user: 'INVESTOR' },
      'ditl-service': { schemas: [serviceEnv, ditlEnv], user: 'DITL', unused: modelVariables },
      'ditl-worker': { schemas: [ditlEnv], user: 'DITL' },
      'content-service': { schemas: [serviceEnv], user: 'CONTENT' },
      notifier: { schemas: [notifierEnv], user: 'NOTIFIER' },
      'spark-migrate': { schemas: [migrateEnv] },
    };
    // Every key of the Secret example, the commented optional ones included, as the variable an app reads it as.
    const secretVariables = new Set(
      [...readFileSync(join(root, 'deploy/base/secret.example.env'), 'utf8').matchAll(/^(?:# )?([A-Z0-9_]+)=/gm)].map(([, key]) =>
        key.replace(/^(REDIS_URL|DATABASE_URL|SIGNING_KEYS)_[A-Z]+$/, '$1'),
      ),
    );

    /** The Secret's keys the app's schemas read, each with the key it is stored under and whether the app starts without it. */
    const expectedSecrets = (app: string) => {
      const { schemas, user, unused = [] } = workloads[app] ?? { schemas: [] };
      const perUser = (variable: string) => user !== undefined && (variable === 'REDIS_URL' || variable === 'DATABASE_URL' || variable === 'SIGNING_KEYS');
      const holdsSigningKeys = user !== undefined && signingKeyPairsOf(user.toLowerCase() as SigningApp).length > 0;
      const read = new Map<string, boolean>();
      for (const schema of schemas) {
        for (const [variable, field] of Object.entries(schema(production).shape)) {
          if (variable === 'SIGNING_KEYS') {
            if (holdsSigningKeys) read.set(variable, false);
          } else if (secretVariables.has(variable) && !unused.includes(variable))
            read.set(variable, (read.get(variable) ?? true) && (field as z.ZodType).safeParse(undefined).success);
        }
      }
      return [...read]
        .map(([variable, optional]) => ({ variable, key: perUser(variable) ? `${variable}_${user}` : variable, optional }))
        .sort((a, b) => a.variable.localeCompare(b.variable));
    };

    it.each(overlays.map((overlay) => [overlay] as const))('in the %s overlay', (overlay) => {
      const rendered = workloadsOf(render(`overlays/${overlay}`));
      expect(rendered.map(({ app }) => app).sort()).toEqual(Object.keys(workloads).sort());
      const given = rendered.flatMap(({ app, pod }) =>
        pod.containers.map((container) => ({
          app,
          secrets: (container.env ?? [])
            .filter((variable) => variable.valueFrom?.secretKeyRef)
            .map(({ name, valueFrom }) => ({ variable: name, key: valueFrom?.secretKeyRef?.key, optional: valueFrom?.secretKeyRef?.optional ?? false }))
            .sort((a, b) => a.variable.localeCompare(b.variable)),
          wholeSecrets: (container.envFrom ?? []).filter((source) => source.secretRef),
        })),
      );
      expect(given).toEqual(rendered.map(({ app }) => ({ app, secrets: expectedSecrets(app), wholeSecrets: [] })));
    });
  });
});
