import { readableSize } from './sparks.service';

describe('readableSize', () => {
  it.each([
    [2 * 1024 ** 3, '2 GB'],
    [1.44 * 1024 ** 3, '1.4 GB'],
    [350 * 1024 ** 2, '350 MB'],
    [11_200, '10.9 KB'],
  ])('writes %d bytes as %s', (bytes, text) => {
    expect(readableSize(bytes)).toBe(text);
  });
});
