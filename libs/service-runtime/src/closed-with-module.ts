import type { OnModuleDestroy } from '@nestjs/common';

/** Something a feature module started outside Nest (a BullMQ worker, say), stopped when its module is destroyed. */
export class ClosedWithModule implements OnModuleDestroy {
  constructor(private readonly close: () => Promise<void>) {}

  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}
