import { commitmentLevels, DECK_DOWNLOAD_TTL_SECONDS, type DeckDownloadResponse, type DonatePage } from '@spark/contracts';
import type { InvestorPageConfig } from '@spark/config';
import type { ObjectStorage } from '@spark/storage';

export type DeckFile = 'full' | 'preview';

const paymentUrlOf = (config: InvestorPageConfig, name: (typeof commitmentLevels)[number]['name']) => {
  switch (name) {
    case 'Pivot':
      return config.PAYMENT_URL_PIVOT;
    case 'Alignment':
      return config.PAYMENT_URL_ALIGNMENT;
    case 'Evolution':
      return config.PAYMENT_URL_EVOLUTION;
    case 'Transformation':
      return config.PAYMENT_URL_TRANSFORMATION;
  }
};

// /donate is public, so whether the preview is there is asked of storage at most this often per gateway, not per view:
// an upload through this gateway is known at once, one through another replica within this time.
const PRESENCE_KNOWN_MS = 30_000;

/** The investor deck and its preview in the private bucket, handed out only as signed URLs. */
export class DeckFiles {
  private readonly presence = new Map<DeckFile, { checkedAt: number; present: Promise<boolean> }>();

  constructor(
    private readonly storage: ObjectStorage,
    private readonly config: InvestorPageConfig,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  keyOf(file: DeckFile): string {
    return file === 'full' ? this.config.INVESTOR_DECK_KEY : this.config.INVESTOR_DECK_PREVIEW_KEY;
  }

  async donatePage(): Promise<DonatePage> {
    return {
      commitmentLevels: commitmentLevels.map((level) => ({ ...level, paymentUrl: paymentUrlOf(this.config, level.name) })),
      hasDeckPreview: await this.exists('preview'),
    };
  }

  /** Visitors asking at the same time share one storage request; a request that failed is not remembered. */
  exists(file: DeckFile): Promise<boolean> {
    const now = this.clock().getTime();
    const known = this.presence.get(file);
    if (known && now - known.checkedAt < PRESENCE_KNOWN_MS) return known.present;
    const present = this.storage.exists(this.keyOf(file));
    this.presence.set(file, { checkedAt: now, present });
    present.catch(() => {
      if (this.presence.get(file)?.present === present) this.presence.delete(file);
    });
    return present;
  }

  async store(file: DeckFile, body: Buffer, contentType: string): Promise<void> {
    // The deck is replaced in place, so a browser must not keep an old copy for long.
    await this.storage.put({ key: this.keyOf(file), body, contentType, cacheControlSeconds: 60 });
    this.presence.set(file, { checkedAt: this.clock().getTime(), present: Promise.resolve(true) });
  }

  /** The full deck for an investor who gave a valid code: a link that works for one hour. */
  async downloadLink(): Promise<DeckDownloadResponse> {
    const issuedAt = this.clock();
    const downloadUrl = await this.storage.signedGetUrl(this.keyOf('full'), {
      expiresInSeconds: DECK_DOWNLOAD_TTL_SECONDS,
      downloadName: 'Spark-Investor-Deck.pdf',
    });
    return { downloadUrl, expiresAt: new Date(issuedAt.getTime() + DECK_DOWNLOAD_TTL_SECONDS * 1000).toISOString() };
  }

  /** The preview embedded on /donate: a short-lived URL, renewed on each page view. */
  previewUrl(): Promise<string> {
    return this.storage.signedGetUrl(this.keyOf('preview'), { expiresInSeconds: 600 });
  }
}
