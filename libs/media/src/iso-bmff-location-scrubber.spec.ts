import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '@spark/errors';
import { type IsoBmffFlavour, IsoBmffLocationScrubber } from './iso-bmff-location-scrubber';

const fixture = (extension: string) => readFileSync(join(__dirname, '../../../apps/system-tests/src/fixtures/location', `with-gps.${extension}`));

function scrub(file: Buffer, flavour: IsoBmffFlavour, chunkSize: number): Buffer {
  const scrubber = new IsoBmffLocationScrubber(flavour);
  const out: Buffer[] = [];
  for (let at = 0; at < file.length; at += chunkSize) out.push(...scrubber.write(file.subarray(at, at + chunkSize)));
  return Buffer.concat([...out, ...scrubber.end()]);
}

describe('IsoBmffLocationScrubber', () => {
  it.each([
    ['mp4', 'movie'],
    ['mov', 'movie'],
    ['heic', 'heif'],
  ] as const)('gives the same clean .%s whatever the chunk boundaries, same length, no position left', (extension, flavour) => {
    const file = fixture(extension);
    const whole = scrub(file, flavour, file.length);
    expect(whole.length).toBe(file.length);
    expect(whole.includes('52.5163') || whole.includes('52,30.978')).toBe(false);
    for (const chunkSize of [1, 7, 4096]) expect(scrub(file, flavour, chunkSize)).toEqual(whole);
  });

  it('refuses a box that claims to reach past the box holding it', () => {
    const trak = Buffer.alloc(16);
    trak.writeUInt32BE(64, 0);
    trak.write('trak', 4, 'latin1');
    const moov = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('moov', 'latin1'), trak]);
    expect(() => scrub(moov, 'movie', moov.length)).toThrow(DomainError);
  });
});
