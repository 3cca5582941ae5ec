import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { ko } from '../i18n/ko';
import { renderInLang } from '../test/renderInLang';
import { AppDownloads } from './AppDownloads';

const DOWNLOADS = {
  android: 'https://play.example/unicorn',
  ios: 'https://apps.example/unicorn',
  mac: 'https://apps.example/unicorn-mac',
  windows: '',
};

describe('AppDownloads', () => {
  it('links each platform with an address to it, in a window of its own', () => {
    renderInLang(<AppDownloads downloads={DOWNLOADS} />, 'ko');
    expect(screen.getByRole('heading', { name: ko.downloads.heading })).toBeTruthy();
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([DOWNLOADS.android, DOWNLOADS.ios, DOWNLOADS.mac]);
    expect(links.every((link) => link.getAttribute('target') === '_blank')).toBe(true);
    expect(links.every((link) => link.getAttribute('rel')?.includes('noopener'))).toBe(true);
    expect(screen.getByRole('link', { name: 'Android용 앱 내려받기' })).toBeTruthy();
  });

  it('shows nothing when no app has an address', () => {
    const { container } = renderInLang(<AppDownloads downloads={{ android: '', ios: '', mac: '', windows: '' }} />, 'en');
    expect(container.textContent).toBe('');
    expect(screen.queryByRole('heading', { name: en.downloads.heading })).toBeNull();
  });
});
