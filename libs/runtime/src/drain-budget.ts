/**
 * How long a process may take to drain after SIGTERM (stop taking work, finish and answer what is in flight,
 * exit 0), in seconds; `onShutdown` exits 1 past it. deploy/ sets each pod's terminationGracePeriodSeconds to
 * its drain plus the preStop pause (`apps/system-tests/src/deploy-drain.spec.ts` holds the manifests to it).
 */
export const DRAIN_SECONDS = {
  /** The gateway, every bus service and the notifier: requests and e-mails finish in seconds. */
  app: 25,
  /**
   * A DITL worker (its own process, or inside ditl-service) finishes the generation it runs: a model call may
   * take up to its timeout (120 s).
   */
  ditlWorker: 150,
} as const;

/** Kubernetes' preStop pause, so the endpoints controller stops routing to a pod before it drains. */
export const PRE_STOP_SECONDS = 5;
