export * from './infrastructure';
export * from './smtp-sink';
export * from './wait';
