export * from './data-source';
export * from './keyset';
export * from './like';
