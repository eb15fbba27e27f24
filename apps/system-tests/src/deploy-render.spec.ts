import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const root = join(__dirname, '..', '..', '..');
const checker = join(root, 'scripts', 'check-deploy.mjs');

async function check(...directories: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [checker, ...directories], { cwd: root });
    return { code: 0, output: stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string };
    return { code: failure.code, output: failure.stdout };
  }
}

describe('deploy/ rendered by kustomize and validated against the Kubernetes schemas (scripts/check-deploy.mjs)', () => {
  it('renders the base and every overlay into objects that all validate', async () => {
    const { code, output } = await check();
    expect(output).toMatch(/^deploy\/base: \d+ objects, all valid$/m);
    expect(output).toMatch(/^deploy\/overlays\/local: \d+ objects, all valid$/m);
    expect(output).toMatch(/^deploy\/overlays\/production: \d+ objects, all valid$/m);
    expect(code).toBe(0);
  });

  describe('an overlay that would not apply', () => {
    let overlay: string;
    beforeAll(async () => {
      overlay = await mkdtemp(join(tmpdir(), 'spark-overlay-'));
      await writeFile(
        join(overlay, 'kustomization.yaml'),
        [
          'resources:',
          // kustomize takes another kustomization only by a relative path.
          `  - ${relative(overlay, join(root, 'deploy', 'base'))}`,
          '  - certificate.yaml',
          'patches:',
          '  - target: { kind: Deployment, name: gateway }',
          '    patch: |-',
          '      - op: add',
          '        path: /spec/replicas',
          '        value: two',
          '  - target: { kind: ScaledObject, name: ditl-worker }',
          '    patch: |-',
          '      - op: remove',
          '        path: /spec/scaleTargetRef',
        ].join('\n'),
      );
      await writeFile(
        join(overlay, 'certificate.yaml'),
        'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: { name: spark-tls }\nspec: { secretName: spark-tls }\n',
      );
    });
    afterAll(() => rm(overlay, { recursive: true, force: true }));

    it('fails, naming each object and what is wrong with it', async () => {
      const { code, output } = await check(overlay);
      expect(code).toBe(1);
      expect(output).toContain('3 problems');
      expect(output).toContain('Deployment/gateway: data/spec/replicas must be integer');
      expect(output).toContain('ScaledObject/ditl-worker: data/spec must have required property scaleTargetRef');
      expect(output).toContain('Certificate/spark-tls: no schema for cert-manager.io/v1 Certificate');
    });

    it('fails when kustomize cannot render it', async () => {
      const { code, output } = await check(join(overlay, 'missing'));
      expect(code).toBe(1);
      expect(output).toContain('kustomize build failed');
    });
  });
});
