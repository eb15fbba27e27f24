import { waitPhrase } from './errors';

describe('waitPhrase', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [3599, '60 minutes'],
    [3600, '1 hour'],
    [82_800, '23 hours'],
    [86_399, '24 hours'],
  ])('says %i s as "%s"', (seconds, phrase) => {
    expect(waitPhrase(seconds)).toBe(phrase);
  });
});
