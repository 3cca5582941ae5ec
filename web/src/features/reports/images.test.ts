import { describe, expect, it } from 'vitest';
import { browserImageProblem, looksLikeImage, MAX_IMAGE_BYTES, roomFor } from './images';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('images checked in the browser', () => {
  it('knows jpg, png and gif by their first bytes, whatever the name', async () => {
    expect(looksLikeImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(looksLikeImage(Uint8Array.from(PNG))).toBe(true);
    expect(looksLikeImage(new TextEncoder().encode('GIF89a'))).toBe(true);
    expect(looksLikeImage(new TextEncoder().encode('BM6'))).toBe(false);
    const script = new File(['#!/bin/sh\necho hi\n'], 'fake.png', { type: 'image/png' });
    expect(await browserImageProblem(script)).toBe(-1401);
    expect(await browserImageProblem(new File([Uint8Array.from(PNG)], 'shot.png'))).toBeUndefined();
  });

  it('refuses an image over 3MB before reading it', async () => {
    const big = new File([Uint8Array.from(PNG), new Uint8Array(MAX_IMAGE_BYTES)], 'big.png');
    expect(await browserImageProblem(big)).toBe(-1402);
  });

  it('holds five images at most', () => {
    expect(roomFor(0, 3)).toBe(3);
    expect(roomFor(3, 3)).toBe(2);
    expect(roomFor(5, 1)).toBe(0);
  });
});
