import { Inject, Injectable, type OnModuleDestroy, type Provider } from '@nestjs/common';
import type { GatewayConfig } from '@spark/config';
import { ObjectStorage } from '@spark/storage';
import { DeckFiles } from './deck-files';

export const INVESTOR_STORAGE = Symbol('investor-storage');

@Injectable()
class InvestorStorageShutdown implements OnModuleDestroy {
  constructor(@Inject(INVESTOR_STORAGE) private readonly storage: ObjectStorage) {}

  onModuleDestroy(): Promise<void> {
    return this.storage.close();
  }
}

/** The deck files and the Developer's Log images share one S3 client, closed with the app. */
export const investorProviders = (config: GatewayConfig): Provider[] => {
  const storage = new ObjectStorage(config);
  return [{ provide: INVESTOR_STORAGE, useValue: storage }, InvestorStorageShutdown, { provide: DeckFiles, useValue: new DeckFiles(storage, config) }];
};
