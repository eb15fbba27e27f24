export * from './start-service';
export * from './account-erasure';
export * from './closed-with-module';
export * from './boot-app';
export * from './erased-users';
