/** One Redis command on one key: what adds a request to its stream. */
export interface KeyedRedisCommand {
  name: string;
  key: string;
  args: readonly (string | number)[];
}

/**
 * A check a request must pass before it goes on the bus (a rate limit), made in the same atomic Redis call that
 * adds it: the caller waits for one round trip instead of two, and a refused request is never added. It must act on
 * the bus's Redis.
 */
export interface BusAdmission {
  /** Runs `command` if the request is admitted; otherwise runs nothing and rejects with the refusal (a DomainError). */
  runIfAdmitted(command: KeyedRedisCommand): Promise<void>;
}
