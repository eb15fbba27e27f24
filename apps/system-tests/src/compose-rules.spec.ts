import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DRAIN_SECONDS, PRE_STOP_SECONDS } from '@spark/runtime';
import { parse, parseAllDocuments } from 'yaml';

const root = join(__dirname, '..', '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { image?: string; build?: unknown; stop_grace_period?: string; ports?: string[]; command?: string[] }>;
};
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const services = Object.entries(compose.services);
const pulled = services.filter(([, service]) => service.build === undefined);
const built = services.filter(([, service]) => service.build !== undefined);

describe('the compose file would really run', () => {
  it.each(pulled)('%s pulls an image pinned to a version, not "latest" or a bare major', (_, service) => {
    expect(service.image).toMatch(/^[\w./-]+:v?\d+\.\d+(\.\d+)?(-[\w.]+)?$/);
  });

  // A production-mode stack on plain http with one-password Redis and Mailpit: safe only while nothing but this
  // machine reaches it (PUBLIC_URL may be http: on localhost alone).
  it.each(services.filter(([, service]) => service.ports))('%s publishes its ports on 127.0.0.1 only', (_, service) => {
    for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('uses no MinIO image: its community images are no longer published', () => {
    expect(services.filter(([, service]) => /minio/i.test(service.image ?? ''))).toEqual([]);
  });

  it.each(built)('%s has its drain budget before compose kills it', (name, service) => {
    const seconds = name.startsWith('ditl') ? DRAIN_SECONDS.ditlWorker + PRE_STOP_SECONDS : DRAIN_SECONDS.app + PRE_STOP_SECONDS;
    expect(service.stop_grace_period).toBe(`${seconds}s`);
  });
});

// The command each Deployment of deploy/base runs, by the script it starts.
const deployedCommands = new Map(
  readdirSync(join(root, 'deploy', 'base'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => parseAllDocuments(readFileSync(join(root, 'deploy', 'base', file), 'utf8')).map((document) => document.toJS() as unknown))
    .flatMap((object) => (object as { spec?: { template?: { spec?: { containers?: { command?: string[] }[] } } } })?.spec?.template?.spec?.containers ?? [])
    .flatMap(({ command }) => (command ? [[command.find((part) => part.endsWith('.js')) ?? '', command] as const] : [])),
);

describe('the compose file runs the apps as Kubernetes does', () => {
  // The flags bound each app's heap and compiler threads, which the memory figures in docs/ were measured with.
  it.each(built)('%s runs the command of the Deployment that starts the same script', (_, service) => {
    const script = service.command?.find((part) => part.endsWith('.js')) ?? '';
    expect(deployedCommands.get(script)).toBeDefined();
    expect(service.command).toEqual(deployedCommands.get(script));
  });
});

describe('the Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1) ?? '';

  it('builds on a pinned Node 24 minor, the one .nvmrc names', () => {
    const [major, minor] = readFileSync(join(root, '.nvmrc'), 'utf8').trim().split('.');
    for (const stage of stages) expect(stage).toMatch(new RegExp(`^node:${major}\\.${minor}-`));
  });

  it('installs dependencies from the manifests before copying the sources, so that layer is cached', () => {
    const install = dockerfile.indexOf('RUN npm ci');
    expect(dockerfile.indexOf('COPY package.json package-lock.json')).toBeLessThan(install);
    expect(dockerfile.indexOf('COPY . .')).toBeGreaterThan(install);
  });

  it('leaves development packages out of the runtime image and runs it as a non-root user', () => {
    expect(dockerfile).toContain('npm prune --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/^COPY (?!--from)/m);
  });

  it("leaves the app's code and dependencies owned by root, so the process that runs them cannot rewrite them", () => {
    const copies = runtime.match(/^COPY .*$/gm) ?? [];
    expect(copies.length).toBeGreaterThan(0);
    expect(copies.filter((copy) => copy.includes('--chown'))).toEqual([]);
  });
});
