export * from './start-service';
export * from './account-erasure';
