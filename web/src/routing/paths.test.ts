import { describe, expect, it } from 'vitest';
import { bindPaths, paths, withLanguagePrefix } from './paths';

describe('paths', () => {
  it('prefixes every path with the language', () => {
    expect(paths.home({ lang: 'ko' })).toBe('/ko');
    expect(paths.purchase({ lang: 'en' })).toBe('/en/purchase');
    expect(paths.privacyPolicy({ lang: 'ja' })).toBe('/ja/terms/privacy');
  });

  it('carries the coupon code from the current location', () => {
    expect(paths.purchase({ lang: 'ko', search: '?code=ABC&other=1' })).toBe('/ko/purchase?code=ABC');
    expect(paths.home({ lang: 'ja', search: '?code=A%20B' })).toBe('/ja?code=A+B');
  });

  it('does not invent an empty code', () => {
    expect(paths.purchase({ lang: 'ko', search: '?code=' })).toBe('/ko/purchase');
  });

  it('adds explicit query parameters and skips empty ones', () => {
    expect(
      paths.license({ lang: 'en', search: '?code=X' }, { userLicenseKey: 'K-1', email: undefined }),
    ).toBe('/en/license?code=X&userLicenseKey=K-1');
  });

  it('binds the context once', () => {
    const p = bindPaths({ lang: 'ja', search: '?code=Z' });
    expect(p.login({ return_to: '/ja/sso' })).toBe('/ja/login?code=Z&return_to=%2Fja%2Fsso');
    expect(p.home()).toBe('/ja?code=Z');
  });
});

describe('withLanguagePrefix', () => {
  it('prefixes the root', () => {
    expect(withLanguagePrefix('ko', '/')).toBe('/ko');
    expect(withLanguagePrefix('en', '')).toBe('/en');
  });

  it('keeps the path, query and hash', () => {
    expect(withLanguagePrefix('ko', '/purchase', '?code=ABC', '#top')).toBe('/ko/purchase?code=ABC#top');
  });

  it('replaces an unsupported two-letter language segment', () => {
    expect(withLanguagePrefix('ja', '/xx/login')).toBe('/ja/login');
  });

  it('normalises the case of a supported language', () => {
    expect(withLanguagePrefix('ko', '/EN/login', '?code=1')).toBe('/en/login?code=1');
  });

  it('treats longer first segments as part of the path', () => {
    expect(withLanguagePrefix('ko', '/register/confirm', '?email=a%40b.c')).toBe('/ko/register/confirm?email=a%40b.c');
  });
});
