export * from './client-words';
export * from './structured-chat';
export * from './escape-html';
