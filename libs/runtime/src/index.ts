export * from './health-server';
export * from './run-main';
export * from './start-service';
export * from './drain-budget';
export * from './process-metrics';
