/** Why `attempt` was refused, or undefined if it was not: for a test that goes on after a refusal it expects. */
export const refusalOf = (attempt: Promise<unknown>): Promise<Error | undefined> =>
  attempt.then(
    () => undefined,
    (reason: unknown) => reason as Error,
  );
