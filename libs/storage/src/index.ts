export * from './object-storage';
export * from './url-signer';
export * from './object-requests';
export * from './s3-operations';
export * from './erasure-notes';
