import type { RenderedObject } from './deploy-rendered';

type KeyRef = { name: string; key: string; optional?: boolean };
type SourceRef = { name: string; optional?: boolean };

/** A rendered container, as far as what it runs and the environment it is given go. */
export interface PodContainer {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  envFrom?: { prefix?: string; configMapRef?: SourceRef; secretRef?: SourceRef }[];
  env?: { name: string; value?: string; valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef } }[];
}

type PodSpec = { initContainers?: PodContainer[]; containers?: PodContainer[] };
type TemplateSpec = { template?: { spec?: PodSpec } };

/** Every container of every workload kind that runs a pod (a CronJob's through its job template), init containers included. */
export function containersOf(objects: RenderedObject[]): { workload: string; container: PodContainer }[] {
  return objects.flatMap((object) => {
    const spec = object.spec as (TemplateSpec & { jobTemplate?: { spec?: TemplateSpec } }) | undefined;
    const pod = object.kind === 'CronJob' ? spec?.jobTemplate?.spec?.template?.spec : spec?.template?.spec;
    return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((container) => ({ workload: `${object.kind}/${object.metadata.name}`, container }));
  });
}

/**
 * The environment the kubelet gives `container`: `envFrom` in order (a later source wins), then `env` over it, each
 * ConfigMap read from the rendered `objects` and each Secret from `secrets` (name → data; Secrets are never rendered).
 * A ConfigMap, Secret or key that is missing and not optional throws, as the kubelet refuses to start such a container
 * (CreateContainerConfigError). `$(VAR)` references are not expanded: the manifests use none.
 */
export function containerEnv(container: PodContainer, objects: RenderedObject[], secrets: Record<string, Record<string, string>>): Record<string, string> {
  const configMaps = Object.fromEntries(
    objects.filter(({ kind }) => kind === 'ConfigMap').map((object) => [object.metadata.name, (object as { data?: Record<string, string> }).data ?? {}]),
  );
  const source = (kind: 'ConfigMap' | 'Secret', name: string) => (kind === 'ConfigMap' ? configMaps[name] : secrets[name]);
  const where = `container ${container.name}`;
  const env: Record<string, string> = {};

  for (const { prefix = '', configMapRef, secretRef } of container.envFrom ?? []) {
    const [kind, ref] = configMapRef ? (['ConfigMap', configMapRef] as const) : (['Secret', secretRef] as const);
    if (!ref) continue;
    const data = source(kind, ref.name);
    if (!data && !ref.optional) throw new Error(`${where}: envFrom names the ${kind} ${ref.name}, which does not exist`);
    for (const [key, value] of Object.entries(data ?? {})) env[`${prefix}${key}`] = String(value);
  }

  for (const { name, value, valueFrom } of container.env ?? []) {
    if (value !== undefined || !valueFrom) {
      env[name] = value ?? '';
      continue;
    }
    const [kind, ref] = valueFrom.configMapKeyRef ? (['ConfigMap', valueFrom.configMapKeyRef] as const) : (['Secret', valueFrom.secretKeyRef] as const);
    if (!ref) throw new Error(`${where}: ${name} comes from neither a ConfigMap nor a Secret key`);
    const data = source(kind, ref.name);
    if (data && ref.key in data) env[name] = String(data[ref.key]);
    else if (!ref.optional)
      throw new Error(`${where}: ${name} reads the key ${ref.key} of the ${kind} ${ref.name}, which ${data ? 'lacks it' : 'does not exist'}`);
  }
  return env;
}
