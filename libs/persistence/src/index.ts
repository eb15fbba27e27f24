export * from './data-source';
export * from './keyset';
