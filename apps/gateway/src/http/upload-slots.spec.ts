import { heldBytesOf, UPLOAD_MAX_HELD_BYTES } from './upload-slots';

describe('heldBytesOf', () => {
  it('counts a small upload by twice its declared size and a larger one than any route takes by the most any upload holds', () => {
    expect(heldBytesOf('20480')).toBe(40_960);
    expect(heldBytesOf(String(100 * 1024 * 1024))).toBe(UPLOAD_MAX_HELD_BYTES);
  });

  it('counts an upload without a usable Content-Length as the largest', () => {
    expect(heldBytesOf(undefined)).toBe(UPLOAD_MAX_HELD_BYTES);
    expect(heldBytesOf('12abc')).toBe(UPLOAD_MAX_HELD_BYTES);
    expect(heldBytesOf('0')).toBe(UPLOAD_MAX_HELD_BYTES);
  });
});
