import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Lang } from '../../i18n/languages';
import { renderInLang } from '../../test/renderInLang';
import HomePage from './HomePage';

function renderHome(lang: Lang) {
  renderInLang(<HomePage />, lang);
}

describe('HomePage', () => {
  it.each<[Lang, string, string, string]>([
    ['ko', '대한민국 1등 광고 차단 앱', '사용자 후기', '별점 5점 만점에 5점'],
    ['en', "Korea's No.1 ad-blocking app", 'What users say', 'Rated 5 out of 5 stars'],
    ['ja', '韓国No.1の広告ブロックアプリ', 'ユーザーの声', '5つ星のうち5'],
  ])('in %s shows the product family, editions, guarantee, six reviews and the empty FAQ', (lang, heading, reviews, rating) => {
    renderHome(lang);
    expect(screen.getByRole('heading', { level: 1, name: heading })).toBeTruthy();
    for (const code of ['uncea', 'uncei', 'uncem', 'uncpa', 'uncpw', 'uncpi', 'uncpm']) {
      expect(document.querySelector(`[data-product="${code}"]`)).not.toBeNull();
    }
    expect(document.querySelectorAll('[data-edition]')).toHaveLength(4);
    const reviewSection = screen.getByRole('heading', { level: 2, name: reviews }).closest('section')!;
    expect(within(reviewSection).getAllByRole('listitem')).toHaveLength(6);
    expect(within(reviewSection).getAllByRole('img', { name: rating })).toHaveLength(6);
    expect(document.querySelector('.home-faq__empty')?.textContent).not.toBe('');
  });
});
