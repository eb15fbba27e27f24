export * from './client-words';
export * from './structured-chat';
