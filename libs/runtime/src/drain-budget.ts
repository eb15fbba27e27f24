/**
 * How long a process may take to drain after SIGTERM (stop taking work, finish and answer what is in flight,
 * exit 0), in seconds. deploy/ sets each pod's terminationGracePeriodSeconds to at least its drain plus its
 * preStop pause, and a test holds the manifests to these numbers.
 */
export const DRAIN_SECONDS = {
  /** The gateway, every bus service and the notifier: requests and e-mails finish in seconds. */
  app: 25,
  /** A DITL worker finishes the generation it runs: a model call may take up to its timeout (120 s). */
  ditlWorker: 150,
} as const;

/** Kubernetes' preStop pause, so the endpoints controller stops routing to a pod before it drains. */
export const PRE_STOP_SECONDS = 5;
