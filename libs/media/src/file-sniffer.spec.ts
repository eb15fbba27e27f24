import { sniffFileType } from './file-sniffer';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('sniffFileType', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], '\0\x10JFIF\0'), 'image/jpeg'],
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], '\0\0\0\rIHDR'), 'image/png'],
    ['gif', bytes('GIF89a\x01\0\x01\0'), 'image/gif'],
    ['webp', bytes('RIFF\x24\0\0\0WEBPVP8 '), 'image/webp'],
    ['heic', bytes([0, 0, 0, 0x18], 'ftypheic\0\0\0\0'), 'image/heic'],
    ['mp4', bytes([0, 0, 0, 0x20], 'ftypisom\0\0\x02\0'), 'video/mp4'],
    ['mov', bytes([0, 0, 0, 0x14], 'ftypqt  \0\0\0\0'), 'video/quicktime'],
    ['avif', bytes([0, 0, 0, 0x1c], 'ftypavif\0\0\0\0'), 'image/avif'],
  ])('recognises %s from its magic number', (_name, head, mime) => {
    expect(sniffFileType(head)?.mime).toBe(mime);
  });

  it.each([
    ['a Windows executable', bytes('MZ\x90\0\x03\0\0\0\x04\0\0\0')],
    ['an ELF binary', bytes([0x7f], 'ELF\x02\x01\x01\0\0\0\0\0')],
    ['a PDF', bytes('%PDF-1.7\n%\xe2\xe3')],
    ['an empty file', Buffer.alloc(0)],
    ['a WebM video (its tags are not cleaned of a location)', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81])],
  ])('refuses %s whatever it is called', (_name, head) => {
    expect(sniffFileType(head)).toBeUndefined();
  });
});
