export * from './data-source';
export * from './keyset';
export * from './like';
export * from './database-unavailable';
