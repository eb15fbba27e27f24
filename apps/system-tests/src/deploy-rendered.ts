import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const root = join(__dirname, '..', '..', '..');
// The binary scripts/check-deploy.mjs renders with: what a cluster is given is what kustomize makes of the overlays,
// not the base's text (an overlay's image pin or patch that matches nothing is seen only here).
const kustomize = join(root, 'node_modules', '@install-binary', 'kustomize-linux-x64', 'kustomize-linux-x64');

export interface RenderedContainer {
  name: string;
  image: string;
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface RenderedPod {
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  containers: RenderedContainer[];
  volumes?: { name: string; emptyDir?: Record<string, unknown> }[];
  topologySpreadConstraints?: unknown[];
}

export interface RenderedObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown> & { template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: RenderedPod } };
}

/** A rendered Deployment or Job: what runs the image, named by its `app.kubernetes.io/name` (the Job's is not renamed per release). */
export interface Workload {
  kind: string;
  app: string;
  pod: RenderedPod;
}

export const overlays = readdirSync(join(root, 'deploy', 'overlays'));

/** `kustomize build deploy/<directory>`, parsed. */
export function render(directory: string): RenderedObject[] {
  const output = execFileSync(kustomize, ['build', join(root, 'deploy', directory)], { encoding: 'utf8' });
  return parseAllDocuments(output)
    .map((document) => document.toJS() as RenderedObject)
    .filter(Boolean);
}

export const workloadsOf = (objects: RenderedObject[]): Workload[] =>
  objects
    .filter((object) => (object.kind === 'Deployment' || object.kind === 'Job') && object.spec?.template?.spec)
    .map((object) => ({
      kind: object.kind,
      app: object.spec?.template?.metadata?.labels?.['app.kubernetes.io/name'] ?? object.metadata.name,
      pod: object.spec?.template?.spec as RenderedPod,
    }));
