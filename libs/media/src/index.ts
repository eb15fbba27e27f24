export * from './file-sniffer';
export * from './image-reencoder';
export * from './spark-media';
export * from './spark-media-keys';
