export * from './job-keys';
export * from './load-config';
export * from './schemas';
export * from './trust-proxy';
