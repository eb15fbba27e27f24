export type { BusAdmission, KeyedRedisCommand } from './bus-admission';
export { ServiceUnavailableError } from './service-unavailable';
export { abortable, unlessAborted } from './unless-aborted';
export * from './redis-streams.client';
export * from './redis-streams.context';
export * from './redis-streams.server';
export * from './service-bus';
export { DEFAULT_PREFIX, replyListKey, requestStreamKey } from './stream-keys';
export { parseRequest, sparkContract, type BusContract } from './contract-check';
