import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storageEnv } from '@spark/config';
import { READINESS_CHECK_TIMEOUT_MS } from '@spark/runtime';
import { deployedCommand } from '@spark/testing';
import { parseAllDocuments } from 'yaml';
import { allowsEgress, type Connection, type NetworkPolicy } from './deploy-network-policies';
import { overlays, type RenderedObject, render, workloadsOf } from './deploy-rendered';

const deploy = join(__dirname, '..', '..', '..', 'deploy');

interface Probe {
  httpGet?: { path: string; port: string | number };
  timeoutSeconds?: number;
}
interface Container {
  name: string;
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: {
    scaleTargetRef?: { name: string };
    selector?: { matchLabels?: Record<string, string> };
    podSelector?: { matchLabels?: Record<string, string> };
    ingress?: { from?: { namespaceSelector?: { matchLabels?: Record<string, string> } }[] }[];
    rules?: { http: { paths: { backend: { service: { name: string } } }[] } }[];
    template?: { metadata?: { labels?: Record<string, string> }; spec?: { securityContext?: { runAsNonRoot?: boolean }; containers?: Container[] } };
  };
}

const read = (directory: string): Manifest[] =>
  readdirSync(join(deploy, directory))
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .flatMap((file) => parseAllDocuments(readFileSync(join(deploy, directory, file), 'utf8')).map((document) => document.toJS() as Manifest));

const base = read('base');
const production = [...base, ...read('overlays/production')];
const deployments = base.filter((manifest) => manifest.kind === 'Deployment');
const podLabels = deployments.map((deployment) => deployment.spec?.template?.metadata?.labels ?? {});
const selects =
  (selector: Record<string, string> = {}) =>
  (labels: Record<string, string>) =>
    Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The fewest pods a rendered Deployment runs: its replicas, or the least its autoscaler keeps. */
function fewestPods(objects: RenderedObject[], deployment: RenderedObject): number {
  const scaler = objects.find(
    (object) =>
      (object.kind === 'HorizontalPodAutoscaler' || object.kind === 'ScaledObject') &&
      (object.spec?.scaleTargetRef as { name?: string } | undefined)?.name === deployment.metadata.name,
  )?.spec as { minReplicas?: number; minReplicaCount?: number } | undefined;
  return scaler ? (scaler.minReplicas ?? scaler.minReplicaCount ?? 1) : ((deployment.spec?.replicas as number | undefined) ?? 1);
}

const appOf = (object: RenderedObject) => object.spec?.template?.metadata?.labels?.['app.kubernetes.io/name'] ?? object.metadata.name;

describe('deploy/ as a cluster would run it', () => {
  it('runs the DITL worker as its own Deployment, apart from the API part of ditl-service', () => {
    expect(deployments.map((deployment) => deployment.metadata.name)).toEqual(expect.arrayContaining(['ditl-service', 'ditl-worker']));
  });

  it.each(deployments.map((deployment) => [deployment.metadata.name, deployment] as const))(
    '%s has probes, resources and a non-root user',
    (_name, deployment) => {
      const pod = deployment.spec?.template?.spec;
      expect(pod?.securityContext?.runAsNonRoot).toBe(true);
      for (const container of pod?.containers ?? []) {
        expect(container.readinessProbe).toBeDefined();
        expect(container.livenessProbe).toBeDefined();
        expect(container.resources?.requests?.cpu).toBeDefined();
        expect(container.resources?.requests?.memory).toBeDefined();
        expect(container.resources?.limits?.memory).toBeDefined();
      }
    },
  );

  it('scales only Deployments that exist: the DITL worker with KEDA, the gateway with an HPA', () => {
    const names = new Set(deployments.map((deployment) => deployment.metadata.name));
    const scalers = base.filter((manifest) => manifest.kind === 'ScaledObject' || manifest.kind === 'HorizontalPodAutoscaler');
    expect(scalers.map((scaler) => [scaler.kind, scaler.spec?.scaleTargetRef?.name])).toEqual(
      expect.arrayContaining([
        ['ScaledObject', 'ditl-worker'],
        ['HorizontalPodAutoscaler', 'gateway'],
      ]),
    );
    for (const scaler of scalers) expect(names).toContain(scaler.spec?.scaleTargetRef?.name);
  });

  it('gives every Deployment a disruption budget that selects its pods, and none that selects nothing', () => {
    const budgets = base.filter((manifest) => manifest.kind === 'PodDisruptionBudget');
    for (const budget of budgets) expect(podLabels.some(selects(budget.spec?.selector?.matchLabels))).toBe(true);
    for (const labels of podLabels) expect(budgets.some((budget) => selects(budget.spec?.selector?.matchLabels)(labels))).toBe(true);
  });

  it('lets only the gateway take traffic from the ingress controller', () => {
    const policies = base.filter((manifest) => manifest.kind === 'NetworkPolicy');
    const fromIngress = policies.filter((policy) =>
      policy.spec?.ingress?.some((rule) => rule.from?.some((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx')),
    );
    expect(fromIngress.map((policy) => policy.spec?.podSelector?.matchLabels)).toEqual([{ 'app.kubernetes.io/name': 'gateway' }]);
    expect(policies.some((policy) => policy.metadata.name === 'default-deny-ingress')).toBe(true);
    const ingresses = production.filter((manifest) => manifest.kind === 'Ingress');
    expect(ingresses.flatMap((ingress) => ingress.spec?.rules?.flatMap((rule) => rule.http.paths.map((path) => path.backend.service.name)) ?? [])).toEqual([
      'gateway',
    ]);
  });

  it("starts the gateway with the image's default command, V8 flags included", () => {
    const dockerfile = readFileSync(join(deploy, '..', 'Dockerfile'), 'utf8');
    const defaultCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    expect(defaultCommand).toEqual(deployedCommand('gateway'));
  });

  // Pod-level runAsNonRoot is not enough: a process taken over could still gain privileges through a setuid binary,
  // rewrite its own code, use the kernel's full capability set and syscall surface, or call the Kubernetes API with
  // the pod's ServiceAccount token. Only /tmp is writable, for libvips (sharp) spilling a large picture to disk.
  it.each(overlays.map((overlay) => [overlay] as const))('hardens every container of the %s overlay and mounts no ServiceAccount token', (overlay) => {
    const workloads = workloadsOf(render(`overlays/${overlay}`));
    expect(workloads.length).toBeGreaterThan(5);
    const hardened = workloads.map(({ app, pod }) => ({
      app,
      automountServiceAccountToken: pod.automountServiceAccountToken,
      containers: pod.containers.map((container) => ({
        securityContext: container.securityContext,
        tmp: pod.volumes?.find((volume) => volume.name === container.volumeMounts?.find((mount) => mount.mountPath === '/tmp')?.name)?.emptyDir !== undefined,
      })),
    }));
    expect(hardened).toEqual(
      workloads.map(({ app, pod }) => ({
        app,
        automountServiceAccountToken: false,
        containers: pod.containers.map(() => ({
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          },
          tmp: true,
        })),
      })),
    );
  });

  // The internal port serves health, /metrics and the gateway's /api/docs: Prometheus reaches it on each pod (the
  // KEDA query reads the DITL processes' gauges), probes use the pod's port, and no Service may publish it.
  it.each(overlays.map((overlay) => [overlay] as const))(
    'exposes no internal port by a Service in the %s overlay, and Prometheus scrapes it on every pod',
    (overlay) => {
      const objects = render(`overlays/${overlay}`);
      const services = objects.filter((object) => object.kind === 'Service');
      const ports = services.flatMap((service) =>
        ((service.spec?.ports ?? []) as { port: number; targetPort: string | number }[]).map(({ port, targetPort }) => ({
          service: service.metadata.name,
          port,
          targetPort,
        })),
      );
      expect(ports).toEqual([{ service: 'gateway', port: 80, targetPort: 'http' }]);
      const scrape = { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8081', 'prometheus.io/path': '/metrics' };
      const deployments = objects.filter((object) => object.kind === 'Deployment');
      expect(deployments.map((deployment) => ({ name: deployment.metadata.name, annotations: deployment.spec?.template?.metadata?.annotations }))).toEqual(
        deployments.map((deployment) => ({ name: deployment.metadata.name, annotations: scrape })),
      );
    },
  );

  // A release is a version tag or a digest; the local overlay runs what `docker build -t spark:local` made.
  const pinnedImage = { production: /^ghcr\.io\/example\/spark(:\d[\w.-]*|@sha256:[0-9a-f]{64})$/, local: /^spark:local$/ };

  it.each(overlays.map((overlay) => [overlay] as const))('runs every workload of the %s overlay on the image that overlay pins', (overlay) => {
    const workloads = workloadsOf(render(`overlays/${overlay}`));
    expect(workloads.length).toBeGreaterThan(5);
    const images = workloads.flatMap(({ app, pod }) => pod.containers.map((container) => ({ app, image: container.image })));
    const expected = pinnedImage[overlay as keyof typeof pinnedImage];
    expect(expected).toBeDefined();
    expect(images.filter(({ image }) => !expected.test(image))).toEqual([]);
    expect(new Set(images.map(({ image }) => image)).size).toBe(1);
  });

  // A node drain or a lost node takes its pods at once; a second pod on another node keeps the app answering. The
  // DITL worker alone may run one pod: KEDA scales it from one, and its jobs wait in the queue meanwhile.
  it('runs two or more pods of every app but the DITL worker in production, spread over nodes', () => {
    const objects = render('overlays/production');
    const deployments = objects.filter((object) => object.kind === 'Deployment');
    expect(deployments.map((deployment) => ({ app: appOf(deployment), fewest: Math.min(fewestPods(objects, deployment), 2) }))).toEqual(
      deployments.map((deployment) => ({ app: appOf(deployment), fewest: appOf(deployment) === 'ditl-worker' ? 1 : 2 })),
    );
    expect(deployments.map((deployment) => ({ app: appOf(deployment), spread: deployment.spec?.template?.spec?.topologySpreadConstraints }))).toEqual(
      deployments.map((deployment) => ({
        app: appOf(deployment),
        spread: [
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: { 'app.kubernetes.io/name': appOf(deployment) } },
          },
        ],
      })),
    );
  });

  // `maxUnavailable: 1` lets a drain take the last pod of an app; `minAvailable: 1` at one pod refuses every eviction,
  // and the drain waits until someone deletes the budget.
  it.each(overlays.map((overlay) => [overlay] as const))('keeps a pod of each app through a drain in the %s overlay, without holding the drain', (overlay) => {
    const objects = render(`overlays/${overlay}`);
    const budgets = objects.filter((object) => object.kind === 'PodDisruptionBudget');
    const deployments = objects.filter((object) => object.kind === 'Deployment');
    const budgetOf = (app: string) => {
      const budget = budgets.find((candidate) =>
        selects((candidate.spec?.selector as { matchLabels?: Record<string, string> }).matchLabels)({ 'app.kubernetes.io/name': app }),
      );
      const { selector: _selector, ...limits } = budget?.spec ?? {};
      return limits;
    };
    expect(deployments.map((deployment) => ({ app: appOf(deployment), budget: budgetOf(appOf(deployment)) }))).toEqual(
      deployments.map((deployment) => ({ app: appOf(deployment), budget: fewestPods(objects, deployment) >= 2 ? { minAvailable: 1 } : { maxUnavailable: 1 } })),
    );
  });

  // Bucket names are global on AWS: one left to its development default names a bucket somebody else owns.
  it('names every bucket the apps use in the ConfigMap', () => {
    const config = base.find((manifest) => manifest.kind === 'ConfigMap' && manifest.metadata.name === 'spark-config')?.data ?? {};
    const bucketVariables = Object.keys(storageEnv({ NODE_ENV: 'production' }).shape).filter((variable) => variable.endsWith('_BUCKET'));
    expect(bucketVariables.length).toBeGreaterThan(1);
    for (const variable of bucketVariables) expect({ variable, set: config[variable] !== undefined }).toEqual({ variable, set: true });
  });

  // The public port is the internet's: a probe there goes through the gateway's request hooks into its request log.
  it.each(deployments.map((deployment) => [deployment.metadata.name, deployment] as const))(
    '%s is probed on its internal port (HEALTH_PORT)',
    (_name, deployment) => {
      const healthPort = Number(base.find((manifest) => manifest.kind === 'ConfigMap' && manifest.metadata.name === 'spark-config')?.data?.HEALTH_PORT);
      for (const container of deployment.spec?.template?.spec?.containers ?? []) {
        const portOf = (probe?: Probe) => {
          const port = probe?.httpGet?.port;
          return typeof port === 'number' ? port : container.ports?.find((candidate) => candidate.name === port)?.containerPort;
        };
        expect({ readiness: portOf(container.readinessProbe), liveness: portOf(container.livenessProbe) }).toEqual({
          readiness: healthPort,
          liveness: healthPort,
        });
        // The kubelet's own default of 1 s would give up before a dependency's check does, and mark every replica
        // unready at once while PostgreSQL or Redis is merely slow.
        expect((container.readinessProbe?.timeoutSeconds ?? 1) * 1000).toBeGreaterThan(READINESS_CHECK_TIMEOUT_MS);
      }
    },
  );

  // Egress by port: where PostgreSQL, Redis and SMTP live is in the Secret, not here (docs/operations.md, "Egress").
  it('lets every pod reach DNS, PostgreSQL and Redis, SMTP only the notifier, and the internet over HTTPS only the apps that call out', () => {
    const policies = base as NetworkPolicy[];
    const callOut = ['gateway', 'progress-service', 'ditl-service', 'ditl-worker', 'notifier'];
    const pods = base
      .filter((manifest) => manifest.kind === 'Deployment' || manifest.kind === 'Job')
      .map((manifest) => manifest.spec?.template?.metadata?.labels ?? {});
    const reaches = (labels: Record<string, string>, connection: Connection) => allowsEgress(policies, labels, connection);
    const privateAddress = '10.0.3.4';
    const internet = '52.219.170.1';
    expect(pods.length).toBeGreaterThan(5);
    expect(
      pods.map((labels) => ({
        app: labels['app.kubernetes.io/name'],
        dns: reaches(labels, { ip: privateAddress, port: 53, protocol: 'UDP' }) && reaches(labels, { ip: privateAddress, port: 53 }),
        postgres: reaches(labels, { ip: privateAddress, port: 5432 }),
        redis: reaches(labels, { ip: privateAddress, port: 6380 }),
        smtp: reaches(labels, { ip: internet, port: 465 }),
        https: reaches(labels, { ip: internet, port: 443 }),
        privateHttps: ['10.0.3.4', '100.64.1.2', '169.254.169.254'].some((ip) => reaches(labels, { ip, port: 443 })),
        other: reaches(labels, { ip: internet, port: 80 }) || reaches(labels, { ip: privateAddress, port: 22 }),
      })),
    ).toEqual(
      pods.map((labels) => ({
        app: labels['app.kubernetes.io/name'],
        dns: true,
        postgres: true,
        redis: true,
        smtp: labels['app.kubernetes.io/name'] === 'notifier',
        https: callOut.includes(labels['app.kubernetes.io/name'] ?? ''),
        privateHttps: false,
        other: false,
      })),
    );
  });

  it("lets a local cluster's pods reach the host's development services, which the base's rules close", () => {
    const objects = render('overlays/local');
    const policies = objects as unknown as NetworkPolicy[];
    const pods = objects
      .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
      .map((object) => object.spec?.template?.metadata?.labels ?? {});
    expect(pods.length).toBeGreaterThan(5);
    for (const labels of pods) expect(allowsEgress(policies, labels, { ip: '192.168.49.1', port: 4569 })).toBe(true);
  });

  // On a versioned bucket (docs/operations.md) a delete leaves the object's old version behind: an erased account's
  // photos, a raw upload with its location.
  it('expires the old versions a delete leaves in a versioned bucket, and uploads never recorded', () => {
    const { Rules: rules } = JSON.parse(readFileSync(join(deploy, 's3', 'lifecycle.json'), 'utf8')) as {
      Rules: { Filter: { Prefix: string }; Status: string; Expiration?: { Days?: number }; NoncurrentVersionExpiration?: { NoncurrentDays: number } }[];
    };
    const forPrefix = (prefix: string) => rules.find((rule) => rule.Status === 'Enabled' && rule.Filter.Prefix === prefix);
    expect(forPrefix('')?.NoncurrentVersionExpiration?.NoncurrentDays).toBeLessThanOrEqual(30);
    expect(forPrefix('incoming/')).toMatchObject({ Expiration: { Days: 1 }, NoncurrentVersionExpiration: { NoncurrentDays: 1 } });
  });

  // A note of an erasure must outlive every backup that predates it, or restoring that backup brings the account back
  // for good; docs/operations.md keeps no database backup longer than this rule keeps the notes.
  it('keeps the notes of erasures as long as the oldest database backup', () => {
    const { Rules: rules } = JSON.parse(readFileSync(join(deploy, 's3', 'lifecycle.json'), 'utf8')) as {
      Rules: { Filter: { Prefix: string }; Status: string; Expiration?: { Days?: number } }[];
    };
    const notes = rules.filter((rule) => rule.Status === 'Enabled' && 'erasures/'.startsWith(rule.Filter.Prefix) && rule.Expiration?.Days !== undefined);
    expect(notes.map((rule) => rule.Expiration?.Days)).toEqual([90]);
  });
});
