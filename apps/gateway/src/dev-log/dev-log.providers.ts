import type { Provider } from '@nestjs/common';
import type { GatewayConfig } from '@spark/config';
import type { ObjectStorage } from '@spark/storage';
import { INVESTOR_STORAGE } from '../investors/investors.providers';
import { LogImages } from './log-images';

export const devLogProviders = (config: GatewayConfig): Provider[] => [
  { provide: LogImages, useFactory: (storage: ObjectStorage) => new LogImages(storage, config.S3_LOG_BUCKET), inject: [INVESTOR_STORAGE] },
];
