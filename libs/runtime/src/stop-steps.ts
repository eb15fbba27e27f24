/** A process's stop that can tell, while it runs, which of its steps it is waiting on. */
export type Stop = (() => Promise<void>) & { waitingOn?: () => string | undefined };

/**
 * A stop made of named steps, run one after another in the order given. A step may itself be such a stop, which then
 * names its own step too ("the app: the mail worker"). So a drain that outlasts its budget says where it waited.
 */
export function stopSteps(steps: Record<string, (() => unknown) | Stop>): Stop {
  let running: { name: string; step: (() => unknown) | Stop } | undefined;
  const stop = async () => {
    for (const [name, step] of Object.entries(steps)) {
      running = { name, step };
      await step();
    }
    running = undefined;
  };
  const waitingOn = () => {
    if (!running) return undefined;
    const inner = 'waitingOn' in running.step ? running.step.waitingOn?.() : undefined;
    return inner ? `${running.name}: ${inner}` : running.name;
  };
  return Object.assign(stop, { waitingOn });
}
