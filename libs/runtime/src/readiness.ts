import type { ReadinessCheck } from './health-server';

/** How long a readiness check waits for each dependency: the orchestrator's probe must wait longer. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/**
 * Ready when every dependency answers, each within a short bound, so a hung dependency makes the process not
 * ready instead of hanging the probe. `whenStarted` is false until the process has finished starting.
 */
export function dependencyReadiness(checks: Record<string, () => Promise<unknown>>, whenStarted: () => boolean = () => true): ReadinessCheck {
  return async () => {
    if (!whenStarted()) return false;
    const answers = await Promise.all(Object.values(checks).map((check) => withinBound(check())));
    return answers.every(Boolean);
  };
}

async function withinBound(answer: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_CHECK_TIMEOUT_MS)));
  try {
    return Boolean(await Promise.race([answer.then(Boolean, () => false), late]));
  } finally {
    clearTimeout(timer);
  }
}
