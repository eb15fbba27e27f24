export * from './signing-keys';
export * from './load-config';
export * from './schemas';
export * from './trust-proxy';
