import { describe, expect, it } from 'vitest';
import { languageOfPath, matchBrowserLanguage, pickPreferredLanguage } from './preferredLanguage';

describe('pickPreferredLanguage', () => {
  it('prefers a valid langCode cookie over the browser language', () => {
    expect(pickPreferredLanguage({ cookie: 'en', browserLanguages: ['ja-JP'] })).toBe('en');
  });
  it('ignores an invalid cookie and falls back to the browser language', () => {
    expect(pickPreferredLanguage({ cookie: 'fr', browserLanguages: ['ja-JP', 'en'] })).toBe('ja');
  });
  it('takes the first supported browser language by primary subtag', () => {
    expect(pickPreferredLanguage({ browserLanguages: ['fr-FR', 'en-GB', 'ko'] })).toBe('en');
  });
  it('falls back to Korean when nothing matches', () => {
    expect(pickPreferredLanguage({ browserLanguages: ['fr', 'de-DE'] })).toBe('ko');
    expect(pickPreferredLanguage({})).toBe('ko');
  });
});

describe('matchBrowserLanguage', () => {
  it('matches case-insensitively and with underscores', () => {
    expect(matchBrowserLanguage(['JA_jp'])).toBe('ja');
  });
  it('does not match a language that only starts with a supported code', () => {
    expect(matchBrowserLanguage(['kok-IN'])).toBeUndefined();
  });
});

describe('languageOfPath', () => {
  it('is the language prefix of the path, in any case', () => {
    expect(languageOfPath('/ja/login', { cookie: 'en' })).toBe('ja');
    expect(languageOfPath('/EN/login', {})).toBe('en');
  });

  it('is the language a redirect would add to a path without one', () => {
    expect(languageOfPath('/purchase', { cookie: 'en' })).toBe('en');
    expect(languageOfPath('/', { browserLanguages: ['ja-JP'] })).toBe('ja');
    expect(languageOfPath('/xx/login', {})).toBe('ko');
  });
});
