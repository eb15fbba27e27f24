export * from './health-server';
export * from './run-main';
export * from './drain-budget';
export * from './process-metrics';
export * from './readiness';
export * from './stop-steps';
