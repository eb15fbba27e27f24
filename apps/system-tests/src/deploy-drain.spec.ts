import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DRAIN_SECONDS, PRE_STOP_SECONDS } from '@spark/runtime';
import { parseAllDocuments } from 'yaml';

const base = join(__dirname, '..', '..', '..', 'deploy', 'base');

interface Deployment {
  kind: string;
  metadata: { name: string };
  spec: {
    template: {
      spec: {
        terminationGracePeriodSeconds?: number;
        containers: { name: string; lifecycle?: { preStop?: { exec?: { command?: string[] } } } }[];
      };
    };
  };
}

const deployments: Deployment[] = readdirSync(base)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(join(base, file), 'utf8')).map((document) => document.toJS() as Deployment))
  .filter((object) => object?.kind === 'Deployment');

/** A process that runs DITL jobs drains for the length of a generation; every other one as an app. */
const drainOf = (name: string) => (name.startsWith('ditl') ? DRAIN_SECONDS.ditlWorker : DRAIN_SECONDS.app);

describe('the Kubernetes manifests and the processes agree on shutting down', () => {
  it('finds the deployments', () => {
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(
      expect.arrayContaining(['gateway', 'auth-service', 'ditl-service', 'notifier']),
    );
  });

  it.each(deployments.map((deployment) => [deployment.metadata.name, deployment] as const))(
    '%s pauses in preStop, then has its whole drain budget before Kubernetes kills it',
    (name, deployment) => {
      const pod = deployment.spec.template.spec;
      for (const container of pod.containers) expect(container.lifecycle?.preStop?.exec?.command).toEqual(['sleep', String(PRE_STOP_SECONDS)]);
      expect(pod.terminationGracePeriodSeconds).toBe(PRE_STOP_SECONDS + drainOf(name));
    },
  );
});
