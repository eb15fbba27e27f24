import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A file of the repository, from the sources or from their build under dist/. */
export function repositoryFile(relative: string): string {
  for (let directory = __dirname; directory !== dirname(directory); directory = dirname(directory)) {
    if (existsSync(join(directory, relative))) return join(directory, relative);
  }
  throw new Error(`${relative} not found above ${__dirname}`);
}

export interface DeployedContainer {
  command?: string[];
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
}

/** The (first) container of Deployment `app`, as `deploy/base/<app>.yaml` gives it. */
export function deployedContainer(app: string): DeployedContainer {
  const manifests = parseAllDocuments(readFileSync(repositoryFile(`deploy/base/${app}.yaml`), 'utf8')).map(
    (document) => document.toJS() as { kind?: string; spec?: { template?: { spec?: { containers?: DeployedContainer[] } } } },
  );
  const container = manifests.find((manifest) => manifest.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0];
  if (!container) throw new Error(`deploy/base/${app}.yaml has no Deployment with a container`);
  return container;
}

/** The command the container of Deployment `app` runs. */
export function deployedCommand(app: string): string[] {
  const { command } = deployedContainer(app);
  if (!command) throw new Error(`deploy/base/${app}.yaml runs its image's default command`);
  return command;
}

/**
 * How the deployed image runs `app` with Node: the flags of its manifest's command (between `node` and the script)
 * and the image's allocator setting (the Dockerfile's `ENV MALLOC_ARENA_MAX`). For benchmarks whose memory figures
 * must be the deployed processes'.
 */
export function deployedNode(app: string): { execArgv: string[]; env: { MALLOC_ARENA_MAX: string } } {
  const arenas = /^ENV MALLOC_ARENA_MAX=(\d+)$/m.exec(readFileSync(repositoryFile('Dockerfile'), 'utf8'))?.[1];
  if (!arenas) throw new Error('the Dockerfile sets no MALLOC_ARENA_MAX');
  return { execArgv: deployedCommand(app).slice(1, -1), env: { MALLOC_ARENA_MAX: arenas } };
}
