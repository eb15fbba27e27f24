import { ConfigError, investorPageEnv, loadConfig } from '@spark/config';
import type { ObjectStorage } from '@spark/storage';
import { DeckFiles } from './deck-files';

describe('DeckFiles', () => {
  const config = loadConfig(investorPageEnv, {});
  const signedGetUrl = jest.fn(async (key: string) => `https://s3.test/${key}?signed`);
  const storage = { signedGetUrl, exists: jest.fn(async () => true) } as unknown as ObjectStorage;

  it('signs the full deck for one hour from the injected clock', async () => {
    const deck = new DeckFiles(storage, config, () => new Date('2030-01-01T10:00:00.000Z'));
    await expect(deck.downloadLink()).resolves.toEqual({
      downloadUrl: `https://s3.test/${config.INVESTOR_DECK_KEY}?signed`,
      expiresAt: '2030-01-01T11:00:00.000Z',
    });
    expect(signedGetUrl).toHaveBeenCalledWith(config.INVESTOR_DECK_KEY, expect.objectContaining({ expiresInSeconds: 3600 }));
  });

  it('links each commitment level to its configured payment page', async () => {
    const page = await new DeckFiles(storage, { ...config, PAYMENT_URL_EVOLUTION: 'https://pay.test/500' }).donatePage();
    expect(page.commitmentLevels.map((level) => `${level.amount} ${level.name}`)).toEqual([
      '100 Pivot',
      '250 Alignment',
      '500 Evolution',
      '1000 Transformation',
    ]);
    expect(page.commitmentLevels[2]?.paymentUrl).toBe('https://pay.test/500');
  });

  describe('whether the preview is there', () => {
    // /donate is public: a storage request per view would let anyone run up the bucket's request bill.
    const countingStorage = (answers: (() => Promise<boolean>)[]) => {
      const heads: string[] = [];
      const stored = {
        exists: async (key: string) => {
          heads.push(key);
          return (answers.shift() ?? (async () => true))();
        },
        put: async () => undefined,
      } as unknown as ObjectStorage;
      return { stored, heads };
    };

    it('asks storage once per half minute, however many visitors load /donate at once or in turn', async () => {
      let now = Date.parse('2030-01-01T10:00:00.000Z');
      const { stored, heads } = countingStorage([async () => false, async () => true]);
      const deck = new DeckFiles(stored, config, () => new Date(now));
      const pages = await Promise.all(Array.from({ length: 50 }, () => deck.donatePage()));
      expect(pages.every((page) => !page.hasDeckPreview)).toBe(true);
      now += 29_000;
      expect((await deck.donatePage()).hasDeckPreview).toBe(false);
      expect(heads).toEqual([config.INVESTOR_DECK_PREVIEW_KEY]);

      now += 1_000;
      expect((await deck.donatePage()).hasDeckPreview).toBe(true);
      expect(heads).toHaveLength(2);
    });

    it('knows at once of a preview this gateway stored, and forgets a check that failed', async () => {
      const { stored, heads } = countingStorage([async () => false, () => Promise.reject(new Error('storage down'))]);
      const deck = new DeckFiles(stored, config);
      expect((await deck.donatePage()).hasDeckPreview).toBe(false);
      await deck.store('preview', Buffer.from('png'), 'image/png');
      expect((await deck.donatePage()).hasDeckPreview).toBe(true);
      expect(heads).toHaveLength(1);

      await expect(deck.exists('full')).rejects.toThrow('storage down');
      await expect(deck.exists('full')).resolves.toBe(true);
      expect(heads).toEqual([config.INVESTOR_DECK_PREVIEW_KEY, config.INVESTOR_DECK_KEY, config.INVESTOR_DECK_KEY]);
    });
  });

  it('points every level back at /donate in development and demands real payment pages in production', () => {
    const development = loadConfig(investorPageEnv, { PUBLIC_URL: 'https://spark.test/' });
    expect(development.PAYMENT_URL_TRANSFORMATION).toBe('https://spark.test/donate#commitment');
    expect(() => loadConfig(investorPageEnv, { NODE_ENV: 'production' })).toThrow(ConfigError);
  });
});
