import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const base = join(__dirname, '..', '..', '..', 'deploy', 'base');

interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: { command?: string[]; envFrom?: unknown[]; readinessProbe?: { httpGet?: { path?: string } } }[] } } };
}

const manifests: Manifest[] = readdirSync(base)
  .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
  .flatMap((file) => parseAllDocuments(readFileSync(join(base, file), 'utf8')).map((document) => document.toJS() as Manifest));

describe('migrations in deploy/base', () => {
  it("run once, in a Job with the apps' configuration (its secret, the database's address, is held to its schema in deploy-secrets.spec.ts), and never in the apps at start", () => {
    const config = manifests.find((manifest) => manifest.kind === 'ConfigMap' && manifest.metadata.name === 'spark-config');
    expect(config?.data?.RUN_MIGRATIONS).toBe('false');
    const jobs = manifests.filter((manifest) => manifest.kind === 'Job');
    expect(jobs.map((job) => job.spec?.template?.spec?.containers?.[0]?.command?.at(-1))).toEqual(['dist/scripts/migrate.js']);
    expect(jobs[0]?.spec?.template?.spec?.containers?.[0]?.envFrom).toEqual([{ configMapRef: { name: 'spark-config' } }]);
  });

  it('gate every app on its readiness, which waits for its schema', () => {
    const deployments = manifests.filter((manifest) => manifest.kind === 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const container = deployment.spec?.template?.spec?.containers?.[0];
      expect({ name: deployment.metadata.name, probe: container?.readinessProbe?.httpGet?.path }).toEqual({
        name: deployment.metadata.name,
        probe: '/health/ready',
      });
      expect(container?.envFrom).toContainEqual({ configMapRef: { name: 'spark-config' } });
    }
  });
});
