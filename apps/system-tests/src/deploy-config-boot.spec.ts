import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertSigningKeysFor,
  authEnv,
  investorEnv,
  ConfigError,
  ditlEnv,
  type Env,
  freshSigningKeys,
  gatewayEnv,
  loadConfig,
  migrateEnv,
  notifierEnv,
  progressEnv,
  serviceEnv,
  type SigningKeys,
} from '@spark/config';
import type { ServiceName, SigningApp } from '@spark/contracts';
import { generateVAPIDKeys } from 'web-push';
import { parse } from 'yaml';
import type { z } from 'zod';
import { containerEnv, containersOf, type PodContainer } from './deploy-container-env';
import { overlays, render, type RenderedObject } from './deploy-rendered';

// Each workload's rendered environment, run through the config its process loads at start: a ConfigMap key dropped or
// misspelt, or a value its schema refuses, would otherwise pass every other test and crash-loop the pod. The base is not
// checked on its own: it is applied only through an overlay (deploy/base/kustomization.yaml).

const root = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

type Schema = (env: Env) => z.ZodObject;
/** What one entry point checks at start: the files that do it, the schemas they load, the app whose signing keys they assert. */
interface Boot {
  sources: string[];
  schemas: Schema[];
  signs?: SigningApp;
}
// bootApp (every service, the notifier, the DITL worker) loads serviceEnv and asserts the schema's signing keys;
// a service's definition then loads its own schema, if any.
const bootApp = 'libs/service-runtime/src/boot-app.ts';
const service = (name: ServiceName, ...own: Schema[]): Boot => ({
  sources: [bootApp, `apps/${name}-service/src/service.ts`],
  schemas: [serviceEnv, ...own],
  signs: name,
});
const boots: Record<string, Boot> = {
  'dist/apps/gateway/src/main.js': { sources: ['apps/gateway/src/main.ts'], schemas: [gatewayEnv], signs: 'gateway' },
  'dist/apps/auth-service/src/main.js': service('auth', authEnv),
  'dist/apps/leads-service/src/main.js': service('leads'),
  'dist/apps/progress-service/src/main.js': service('progress', progressEnv),
  'dist/apps/investor-service/src/main.js': service('investor', investorEnv),
  'dist/apps/ditl-service/src/main.js': service('ditl', ditlEnv),
  'dist/apps/content-service/src/main.js': service('content'),
  'dist/apps/ditl-service/src/worker-main.js': { sources: ['apps/ditl-service/src/worker-main.ts', bootApp], schemas: [ditlEnv, serviceEnv], signs: 'ditl' },
  'dist/apps/notifier/src/main.js': { sources: ['apps/notifier/src/main.ts', bootApp], schemas: [notifierEnv, serviceEnv], signs: 'notifier' },
  'dist/scripts/migrate.js': { sources: ['scripts/migrate.ts'], schemas: [migrateEnv] },
};

/** Runs the config checks `entry` runs at start on `env`; throws the ConfigError the process would stop with. */
function boot(entry: string, env: Env): void {
  const { schemas, signs } = boots[entry] ?? { schemas: [] };
  const configs = schemas.map((schema) => loadConfig(schema, env) as { SIGNING_KEYS?: SigningKeys });
  const keys = configs.find((config) => config.SIGNING_KEYS)?.SIGNING_KEYS;
  if (signs && keys) assertSigningKeysFor(signs, keys);
}

/** The variables a failed start names, or the error's message when it is no ConfigError. */
function refusal(start: () => void): string[] {
  try {
    start();
  } catch (error) {
    return error instanceof ConfigError ? error.variables : [String(error)];
  }
  return [];
}

// The JavaScript file a command runs: the container's own command, or the image's (the Dockerfile's CMD).
const imageCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1] ?? '[]') as string[];
const entryOf = ({ command, args }: Pick<PodContainer, 'command' | 'args'>) =>
  (command ? [...command, ...(args ?? [])] : (args ?? imageCommand)).find((part) => part.endsWith('.js')) ?? '(none)';

/** Valid values for documented formats: the generators secret.example.env and the compose file's header point to. */
function documentedSecrets(): Record<string, string> {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const vapid = generateVAPIDKeys();
  const signing = freshSigningKeys(); // `npm run signing-keys`
  return {
    ...Object.fromEntries(signing.map(({ app, value }) => [`SIGNING_KEYS_${app.toUpperCase()}`, value])),
    // `npm run signing-keys -- --compose`: every key in one list, for compose.
    SIGNING_KEYS: [...new Set(signing.flatMap(({ value }) => value.split(',')))].join(','),
    MAIL_SEAL_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    MAIL_SEAL_PRIVATE_KEYS: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
  };
}
const randomHex = () => randomBytes(32).toString('hex'); // `openssl rand -hex 32`

/**
 * The Secret spark-secrets as an operator makes it from deploy/base/secret.example.env: each CHANGE_ME (a whole value,
 * or a URL's password) generated, documented formats made by their generators, other values kept. The keys the example
 * leaves commented out (optional) are set only when `optional`.
 */
function fakeSecret({ optional }: { optional: boolean }): Record<string, string> {
  const documented = documentedSecrets();
  const filled = (example: string) =>
    /^[a-z]+:\/\//.test(example) ? example.replace('CHANGE_ME', randomHex()) : /CHANGE_ME|^$/.test(example) ? randomHex() : example;
  return Object.fromEntries(
    [...read('deploy/base/secret.example.env').matchAll(/^(# )?([A-Z0-9_]+)=(.*)$/gm)]
      .filter(([, commented]) => optional || !commented)
      .map(([, , key = '', example = '']) => [key, documented[key] ?? filled(example)]),
  );
}

/** The Spark containers of a rendered overlay (those of the one image), each with the entry point it runs. */
const sparkContainers = (objects: RenderedObject[]) =>
  containersOf(objects)
    .filter(({ container }) => /(^|\/)spark:/.test(container.image))
    .map(({ workload, container }) => ({ workload, container, entry: entryOf(container) }));

/** The variables each schema of `entry` reads. */
const readBy = (entry: string) => new Set((boots[entry]?.schemas ?? []).flatMap((schema) => Object.keys(schema({ NODE_ENV: 'production' }).shape)));

/** The ConfigMap keys no container given the ConfigMap reads, and the literal `env` values their own container does not read. */
function unreadSettings(objects: RenderedObject[]): string[] {
  const containers = sparkContainers(objects);
  const unread: string[] = [];
  for (const configMap of objects.filter(({ kind }) => kind === 'ConfigMap')) {
    const readers = containers.filter(({ container }) => container.envFrom?.some((source) => source.configMapRef?.name === configMap.metadata.name));
    const read = new Set(readers.flatMap(({ entry }) => [...readBy(entry)]));
    for (const key of Object.keys((configMap as { data?: object }).data ?? {})) if (!read.has(key)) unread.push(`ConfigMap/${configMap.metadata.name}: ${key}`);
  }
  for (const { workload, container, entry } of containers)
    for (const { name, value } of container.env ?? []) if (value !== undefined && !readBy(entry).has(name)) unread.push(`${workload}: ${name}`);
  return unread;
}

describe('each Spark entry point checks the config this test runs it through', () => {
  // The table above is written by hand: this keeps it to the loadConfig calls and signing app of the sources.
  it.each(Object.entries(boots))('%s', (_, { sources, schemas, signs }) => {
    const text = sources.map(read).join('\n');
    const loaded = [...text.matchAll(/\bloadConfig\((\w+)/g)].map(([, name]) => name);
    // The app asserted directly, or the schema (a service definition's name) that bootApp asserts.
    const named = [...text.matchAll(/(?:assertSigningKeysFor\(|\bname: |\bschema: )'([a-z]+)'/g)].map(([, name]) => name);
    const asserts = text.includes('assertSigningKeysFor(');
    expect({ loaded: [...new Set(loaded)].sort(), signs: asserts ? named[0] : undefined }).toEqual({
      loaded: schemas.map((schema) => schema.name).sort(),
      signs,
    });
  });
});

describe.each(overlays)('the %s overlay', (overlay) => {
  const objects = render(`overlays/${overlay}`);
  const containers = sparkContainers(objects);
  const secrets = (optional: boolean) => ({ 'spark-secrets': fakeSecret({ optional }) });

  it('runs a known Spark entry point in every container of the image', () => {
    expect(containers.length).toBeGreaterThan(5);
    expect(containers.filter(({ entry }) => !(entry in boots)).map(({ workload, entry }) => `${workload}: ${entry}`)).toEqual([]);
  });

  // A schema ignores a key it does not know, so an optional setting misspelt (TRUST_PROXIES) is dropped without a word.
  it('sets nothing no schema reads: each ConfigMap key is read by a container given it, each literal value by its own', () => {
    expect(unreadSettings(objects)).toEqual([]);
  });

  it.each(containers)('$workload ($entry) starts with the Secret as secret.example.env lists it', ({ container, entry }) => {
    const env = containerEnv(container, objects, secrets(false));
    expect(env.NODE_ENV).toBe('production');
    expect(refusal(() => boot(entry, env))).toEqual([]);
  });

  it.each(containers)('$workload ($entry) starts with the optional keys of the Secret set too', ({ container, entry }) => {
    expect(refusal(() => boot(entry, containerEnv(container, objects, secrets(true))))).toEqual([]);
  });
});

describe('the check bites: a broken production value is caught, and named', () => {
  const objects = render('overlays/production');
  const containerOf = (name: string, rendered = objects) => {
    const found = sparkContainers(rendered).find(({ workload }) => workload === `Deployment/${name}`);
    if (!found) throw new Error(`no Deployment/${name}`);
    return found;
  };
  /** The start of `workload` on the production overlay, after `edit` changed its environment or the Secret. */
  const startOf = (workload: string, { env: editEnv = () => {}, secret: editSecret = () => {}, rendered = objects } = {} as Edits) => {
    const { container, entry } = containerOf(workload, rendered);
    const secret = fakeSecret({ optional: false });
    editSecret(secret);
    return () => {
      const env = containerEnv(container, rendered, { 'spark-secrets': secret });
      editEnv(env);
      boot(entry, env);
    };
  };
  interface Edits {
    env?: (env: Record<string, string>) => void;
    secret?: (secret: Record<string, string>) => void;
    rendered?: RenderedObject[];
  }

  it('the unbroken gateway starts (the baseline of the cases below)', () => {
    expect(refusal(startOf('gateway'))).toEqual([]);
  });

  it('PUBLIC_URL dropped from the gateway', () => {
    expect(refusal(startOf('gateway', { env: (env) => delete env.PUBLIC_URL }))).toEqual(['PUBLIC_URL']);
  });

  /** The production overlay with the ConfigMap's key `from` renamed `to`. */
  const misspelt = (from: string, to: string) =>
    objects.map((object) => {
      if (object.kind !== 'ConfigMap') return object;
      const { [from]: value, ...data } = (object as { data?: Record<string, string> }).data ?? {};
      return { ...object, data: { ...data, [to]: value } } as RenderedObject;
    });

  it('PUBLIC_URL misspelt in the ConfigMap stops the auth-service', () => {
    expect(refusal(startOf('auth-service', { rendered: misspelt('PUBLIC_URL', 'PUBLIC_ULR') }))).toEqual(['PUBLIC_URL']);
  });

  it('TRUST_PROXY misspelt in the ConfigMap: the gateway starts trusting no proxy, but the key is read by no one', () => {
    const rendered = misspelt('TRUST_PROXY', 'TRUST_PROXIES');
    expect(refusal(startOf('gateway', { rendered }))).toEqual([]);
    expect(unreadSettings(rendered)).toEqual(['ConfigMap/spark-config: TRUST_PROXIES']);
  });

  it('TRUST_PROXY that is no hop count or address list', () => {
    expect(refusal(startOf('gateway', { env: (env) => (env.TRUST_PROXY = 'ingress-nginx') }))).toEqual(['TRUST_PROXY']);
  });

  it('LEAD_ALERTS_PER_HOUR=0 on the notifier', () => {
    expect(refusal(startOf('notifier', { env: (env) => (env.LEAD_ALERTS_PER_HOUR = '0') }))).toEqual(['LEAD_ALERTS_PER_HOUR']);
  });

  it("the example's CHANGE_ME left as JWT_SECRET", () => {
    expect(refusal(startOf('gateway', { secret: (secret) => (secret.JWT_SECRET = 'CHANGE_ME_AT_LEAST_32_RANDOM_CHARACTERS') }))).toEqual(['JWT_SECRET']);
  });

  it("another app's signing keys given to the auth-service", () => {
    expect(refusal(startOf('auth-service', { secret: (secret) => (secret.SIGNING_KEYS_AUTH = secret.SIGNING_KEYS_LEADS ?? '') }))).toEqual(['SIGNING_KEYS']);
  });

  it('a key missing from the Secret keeps the container from being created', () => {
    const [problem] = refusal(startOf('progress-service', { secret: (secret) => delete secret.MAIL_SEAL_PUBLIC_KEY }));
    expect(problem).toMatch(/MAIL_SEAL_PUBLIC_KEY reads the key MAIL_SEAL_PUBLIC_KEY of the Secret spark-secrets, which lacks it/);
  });
});

describe('docker-compose.yml', () => {
  type ComposeService = { build?: unknown; command?: string[]; environment?: Record<string, unknown> | string[]; env_file?: unknown };
  const text = read('docker-compose.yml');
  const compose = parse(text, { merge: true }) as { services: Record<string, ComposeService> };
  const apps = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

  // The .env the file's header has one make: every `${NAME:?…}` it requires, generated as documented.
  const documented = documentedSecrets();
  const dotEnv = Object.fromEntries([...text.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map(([, name = '']) => [name, documented[name] ?? randomHex()]));

  /** Compose's interpolation: `$$`, `${NAME}`, `$NAME`, and `${NAME:-default}`, `${NAME:?error}` and their forms without the colon. */
  const interpolate = (value: string) =>
    value.replace(/\$\$|\$\{([A-Za-z0-9_]+)(?:(:?)([-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, colon, operator, argument, bare) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare) as string;
      const set = dotEnv[name];
      const unset = set === undefined || (colon === ':' && set === '');
      if (operator === '-') return unset ? argument : set;
      if (operator === '+') return unset ? '' : argument;
      if (operator === '?' && unset) throw new Error(`compose refuses to start: ${name} ${argument}`);
      return set ?? '';
    });
  const environmentOf = ({ environment = {} }: ComposeService): Record<string, string> => {
    const pairs = Array.isArray(environment) ? environment.map((entry) => entry.split(/=(.*)/s)) : Object.entries(environment);
    // A variable without a value is passed from the shell compose runs in: unset here.
    return Object.fromEntries(pairs.filter(([, value]) => value !== undefined && value !== null).map(([name, value]) => [name, interpolate(String(value))]));
  };

  it('runs a known Spark entry point in every service of the image, each given its environment inline', () => {
    expect(apps.length).toBeGreaterThan(5);
    // An env_file would have to be read here too: none is used, and this keeps it so until this test reads them.
    expect(apps.filter(([, service]) => service.env_file !== undefined || !(entryOf(service) in boots)).map(([name]) => name)).toEqual([]);
  });

  it('sets nothing no app reads', () => {
    const read = new Set(apps.flatMap(([, service]) => [...readBy(entryOf(service))]));
    expect(
      apps.flatMap(([name, service]) =>
        Object.keys(environmentOf(service))
          .filter((key) => !read.has(key))
          .map((key) => `${name}: ${key}`),
      ),
    ).toEqual([]);
  });

  it.each(apps)('%s starts with the .env its header has one generate', (_, service) => {
    const env = environmentOf(service);
    expect(env.NODE_ENV).toBe('production');
    expect(refusal(() => boot(entryOf(service), env))).toEqual([]);
  });
});
