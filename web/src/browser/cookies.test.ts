import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies';

describe('readCookie', () => {
  it('finds a cookie among others', () => {
    expect(readCookie('langCode', 'a=1; langCode=en; b=2')).toBe('en');
  });
  it('does not match a cookie whose name only ends the same', () => {
    expect(readCookie('langCode', 'xlangCode=ja')).toBeUndefined();
  });
  it('decodes values and tolerates bad encodings', () => {
    expect(readCookie('x', 'x=a%20b')).toBe('a b');
    expect(readCookie('x', 'x=%E0%A4%A')).toBe('%E0%A4%A');
  });
  it('gives undefined for an empty string', () => {
    expect(readCookie('langCode', '')).toBeUndefined();
  });
});
