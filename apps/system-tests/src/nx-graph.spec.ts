import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const nx = (...args: string[]): string[] =>
  execFileSync(join(root, 'node_modules/.bin/nx'), args, { cwd: root, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .sort();

describe('the Nx project graph', () => {
  it('knows who imports what: a change to libs/errors affects the gateway and the services, not the web app', () => {
    const affected = nx('show', 'projects', '--affected', '--files=libs/errors/src/domain-error.ts');
    expect(affected).toEqual(expect.arrayContaining(['errors', 'messaging', 'gateway', 'leads-service', 'notifier']));
    expect(affected).not.toContain('web');
  }, 60_000);

  it('gives every project a lint target, and every app and library build and test targets', () => {
    const all = nx('show', 'projects');
    // Benchmarks and operator scripts are built with the apps and checked by lint; the browser tests have e2e.
    const tools = ['bench', 'scripts'];
    expect(nx('show', 'projects', '--with-target', 'lint')).toEqual(all);
    expect(nx('show', 'projects', '--with-target', 'test')).toEqual(all.filter((name) => ![...tools, 'web-e2e'].includes(name)));
    expect(nx('show', 'projects', '--with-target', 'build')).toEqual(all.filter((name) => ![...tools, 'web-e2e', 'system-tests'].includes(name)));
  }, 60_000);
});
