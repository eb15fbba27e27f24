// Typed access to scripts/lib/stack.mjs, the same code `npm start` runs, so the browser tests
// exercise the product as a person starts it, on ports of their own.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

export const repositoryRoot = resolve(__dirname, '..', '..', '..');
export const e2eLogDirectory = join(repositoryRoot, '.data', 'e2e', 'logs');

export const E2E_PORTS = { gateway: 18080, smtp: 1026, mailboxWeb: 1081, s3: 14569 } as const;

interface StackProcess {
  name: string;
  pid: number;
  exited: Promise<number>;
}

export interface RunningStack {
  urls: { app: string; apiDocs: string; metrics: string; mailbox?: string; s3?: string; health: string };
  processes: StackProcess[];
  stop(): Promise<void>;
}

interface StackOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  ports: typeof E2E_PORTS;
  databaseName: string;
  recreateDatabase: boolean;
  busPrefix: string;
  isolated: boolean;
  output: { directory: string };
  log: (message: string) => void;
}

interface StackModule {
  startStack(options: StackOptions): Promise<RunningStack>;
  missingApps(root: string): string[];
}

// A plain `import()` would be compiled to require() by swc; Node 24 loads ES modules either way.
async function loadStackModule(): Promise<StackModule> {
  const stackModule: unknown = await import(join(repositoryRoot, 'scripts', 'lib', 'stack.mjs'));
  const appsModule: unknown = await import(join(repositoryRoot, 'scripts', 'lib', 'apps.mjs'));
  return { ...(stackModule as Pick<StackModule, 'startStack'>), ...(appsModule as Pick<StackModule, 'missingApps'>) };
}

/** The build outputs the stack needs that are missing. */
export async function missingBuildOutputs(): Promise<string[]> {
  return (await loadStackModule()).missingApps(repositoryRoot);
}

/** Starts the product for the browser tests: database spark_e2e (fresh), its own bus prefix. */
export async function startE2eStack(log: (message: string) => void): Promise<RunningStack & { busPrefix: string }> {
  const { startStack } = await loadStackModule();
  const busPrefix = `e2e-${randomBytes(4).toString('hex')}`;
  const stack = await startStack({
    root: repositoryRoot,
    // The tests play the ingress: each one's X-Forwarded-For is its own client address.
    env: { ...process.env, TRUST_PROXY: '127.0.0.1' },
    ports: E2E_PORTS,
    databaseName: 'spark_e2e',
    recreateDatabase: true,
    busPrefix,
    isolated: true,
    output: { directory: e2eLogDirectory },
    log,
  });
  return { ...stack, busPrefix };
}

// jest runs globalSetup and globalTeardown in one process, so the handle travels on globalThis.
const registry = globalThis as typeof globalThis & { sparkE2eStack?: RunningStack };

export const rememberStack = (stack: RunningStack) => {
  registry.sparkE2eStack = stack;
};

export function forgetStack(): RunningStack | undefined {
  const stack = registry.sparkE2eStack;
  registry.sparkE2eStack = undefined;
  return stack;
}
