export * from './object-storage';
export * from './url-signer';
