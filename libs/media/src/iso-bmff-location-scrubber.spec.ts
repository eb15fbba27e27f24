import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '@spark/errors';
import { type IsoBmffFlavour, IsoBmffLocationScrubber, MAX_BOXES } from './iso-bmff-location-scrubber';

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

  const box = (type: string, payload = Buffer.alloc(0)) => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + payload.length, 0);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, payload]);
  };

  it('refuses a movie of more boxes than any recording has as it reads them, so a file of tiny boxes cannot hold the worker for long', () => {
    const movieOf = (headers: number) => Buffer.concat([box('ftyp', Buffer.from('isom', 'latin1')), Buffer.alloc(8 * (headers - 1)).fill(box('free'))]);
    const atTheLimit = movieOf(MAX_BOXES);
    expect(scrub(atTheLimit, 'movie', 64 * 1024)).toEqual(atTheLimit);
    expect(() => new IsoBmffLocationScrubber('movie').write(movieOf(MAX_BOXES + 1))).toThrow(DomainError);
  });

  it('cleans a fragmented movie of many fragments, each a few boxes', () => {
    const fragment = Buffer.concat([box('moof', box('mfhd', Buffer.alloc(8))), box('mdat', Buffer.alloc(32))]);
    const file = Buffer.concat([box('ftyp', Buffer.from('isom', 'latin1')), box('moov', box('mvhd', Buffer.alloc(100))), ...Array(2000).fill(fragment)]);
    expect(scrub(file, 'movie', 64 * 1024)).toEqual(file);
  });

  it('refuses a box that claims to reach past the box holding it', () => {
    const trak = Buffer.alloc(16);
    trak.writeUInt32BE(64, 0);
    trak.write('trak', 4, 'latin1');
    const moov = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('moov', 'latin1'), trak]);
    expect(() => scrub(moov, 'movie', moov.length)).toThrow(DomainError);
  });
});
