export * from './load-config';
export * from './schemas';
