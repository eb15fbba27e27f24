import { BaseRpcContext } from '@nestjs/microservices';

/** What `@Ctx()` gives a handler served by RedisStreamsServer. */
export class RedisStreamsContext extends BaseRpcContext<[pattern: string, entryId: string]> {
  getPattern(): string {
    return this.args[0];
  }

  /** The stream entry id; the same request redelivered after a crash keeps it. */
  getEntryId(): string {
    return this.args[1];
  }
}
