export * from './object-storage';
export * from './media-keys';
