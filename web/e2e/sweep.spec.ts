/**
 * Issue 29, the sweep: every route in ko, en and ja, at desktop and phone width, fails on text that overflows its
 * box (or a page wider than the window), on visible text in another language than the page's and on a Korean word
 * the layout broke across two lines. Text marked with
 * its own language (`lang="ko"` on the company block, the language switcher's names) is that language's.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './clients';
import { LANGUAGES } from '../src/i18n/languages';
import { routePatterns } from '../src/routing/paths';

/** Every route of the app under /{lang}, with made-up values for path parameters. */
const ROUTES = ['', ...Object.values(routePatterns).map((pattern) => pattern.replace(/:\w+/g, 'x1'))];

interface Finding {
  kind: 'overflow' | 'language' | 'broken word';
  where: string;
  text: string;
}

/** What is wrong on the page as shown: overflowing text and text in another language than `lang`. */
function inspect(page: Page, lang: string): Promise<Finding[]> {
  return page.evaluate((pageLang) => {
    const findings: Finding[] = [];
    const describe = (element: Element) =>
      [element.tagName.toLowerCase(), ...Array.from(element.classList).slice(0, 2)].join('.');
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      // A 1px, clipped box is text for screen readers only (the phone's "My Account" label), not laid out to read.
      const clipped = style.clipPath !== 'none' && box.width <= 1;
      return box.width > 0 && box.height > 0 && !clipped && style.visibility !== 'hidden' && style.display !== 'none';
    };
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      findings.push({
        kind: 'overflow',
        where: 'page',
        text: `${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px window`,
      });
    }
    const HANGUL = /[\uac00-\ud7a3]/;
    const KANA = /[\u3040-\u30ff]/;
    const HAN = /[\u4e00-\u9fff]/;
    // Three English words in a row (not a brand like "Unicorn Pro for Android", which is capitalised).
    const ENGLISH_PHRASE = /\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b/;
    const foreign = (text: string, language: string) => {
      if (language === 'ko') return KANA.test(text) || ENGLISH_PHRASE.test(text);
      if (language === 'ja') return HANGUL.test(text) || ENGLISH_PHRASE.test(text);
      return HANGUL.test(text) || KANA.test(text) || HAN.test(text);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const checked = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, noscript, [aria-hidden="true"], .visually-hidden')) continue;
      if (!visible(parent)) continue;
      const language = parent.closest('[lang]')?.getAttribute('lang') ?? pageLang;
      if (foreign(text, language)) findings.push({ kind: 'language', where: describe(parent), text });
      // A Korean word is never broken inside itself ("차단합/니다"): all of it on one line.
      if (language === 'ko' && HANGUL.test(text)) {
        // A run of Hangul syllables: a line may break at a space, a hyphen or before a bracket, never inside one.
        const whole = node.textContent ?? '';
        const word = /[\uac00-\ud7a3]+/g;
        for (let found = word.exec(whole); found; found = word.exec(whole)) {
          const range = document.createRange();
          range.setStart(node, found.index);
          range.setEnd(node, found.index + found[0].length);
          const lines = new Set(
            Array.from(range.getClientRects())
              .filter((rect) => rect.width > 0)
              .map((rect) => Math.round(rect.top)),
          );
          if (lines.size > 1) findings.push({ kind: 'broken word', where: describe(parent), text: found[0] });
        }
      }
      if (checked.has(parent)) continue;
      checked.add(parent);
      const style = getComputedStyle(parent);
      const scrolls = ['auto', 'scroll'].includes(style.overflowX);
      if (!scrolls && parent.scrollWidth > parent.clientWidth + 1 && style.display !== 'inline') {
        findings.push({ kind: 'overflow', where: describe(parent), text: text.slice(0, 80) });
      }
    }
    return findings;
  }, lang);
}

for (const lang of LANGUAGES) {
  test(`every route in ${lang}: no text overflows its box, none is in another language`, async ({ page }) => {
    test.setTimeout(180_000);
    const problems: string[] = [];
    await page.goto(`/${lang}`);
    await expect(page.locator('main h1').first()).toBeVisible();
    // Korean and Japanese are set so that words do not break inside themselves.
    const wordBreak = await page.locator('main').evaluate((main) => getComputedStyle(main).wordBreak);
    expect(wordBreak).toBe({ ko: 'keep-all', ja: 'auto-phrase', en: 'normal' }[lang]);
    for (const route of ROUTES) {
      const url = `/${lang}${route ? `/${route}` : ''}`;
      if (route) {
        await page.evaluate((target) => {
          document.querySelectorAll('main h1').forEach((heading) => heading.setAttribute('data-stale', ''));
          window.history.pushState(null, '', target);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, url);
        await page.waitForFunction(
          (target) => window.location.pathname !== target || document.querySelector('main h1:not([data-stale])') !== null,
          url,
        );
      }
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      // The page's own loading view gone: what is checked is the page as the customer reads it.
      await expect(page.locator('main .page-loading')).toHaveCount(0);
      for (const finding of await inspect(page, lang)) {
        problems.push(`${url} ${finding.kind} at ${finding.where}: ${finding.text}`);
      }
    }
    expect(problems).toEqual([]);
  });
}
