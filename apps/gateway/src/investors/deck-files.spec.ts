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

  it('points every level back at /donate in development and demands real payment pages in production', () => {
    const development = loadConfig(investorPageEnv, { PUBLIC_URL: 'https://spark.test/' });
    expect(development.PAYMENT_URL_TRANSFORMATION).toBe('https://spark.test/donate#commitment');
    expect(() => loadConfig(investorPageEnv, { NODE_ENV: 'production' })).toThrow(ConfigError);
  });
});
