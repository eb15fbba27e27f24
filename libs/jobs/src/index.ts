export * from './job-handlers';
export * from './job-queues';
export * from './outbox-relay';
export * from './outbox-rows';
export * from './outbox.migration';
export * from './outbox-confirmation.migration';
export * from './retry-budget';
export * from './repeating-job';
