export * from './infrastructure';
export * from './smtp-sink';
export * from './wait';
export * from './s3-server';
export * from './images';
export * from './zod-arbitrary';
export * from './database-fingerprint';
export * from './private-postgres';
