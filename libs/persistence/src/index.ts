export * from './data-source';
export * from './keyset';
export * from './like';
export * from './database-unavailable';
export * from './unit-of-work';
export * from './request-ledger';
export * from './service-role.migration';
