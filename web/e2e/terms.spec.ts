import { expect, test } from './clients';
import { en } from '../src/i18n/en';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';
import type { Catalogue } from '../src/i18n/catalogue';

/**
 * Issue 29, finding 3: the terms of use agreed to at purchase are written (in ko, en and ja, beside the policies),
 * and the footer shows the seller's company block from the deployment's settings (the development samples here).
 */

const LANGUAGES: [string, Catalogue][] = [
  ['ko', ko],
  ['en', en],
  ['ja', ja],
];

for (const [lang, t] of LANGUAGES) {
  test(`the terms of use in ${lang}, linked from the footer and the purchase agreements`, async ({ page }) => {
    await page.goto(`/${lang}/purchase`);
    // The purchase's agreement to the terms of use links to them.
    await expect(page.locator(`main a[href="/${lang}/terms/service"]`)).toHaveCount(1);
    await page.goto(`/${lang}/terms/service`);
    await expect(page.getByRole('heading', { level: 1, name: t.terms.termsHeading })).toBeVisible();
    await expect(page.getByText(ko.common.comingSoon)).toHaveCount(0);
    await expect(page.locator('main h2')).toHaveCount(11);
    await expect(page.getByRole('navigation', { name: t.terms.policiesHeading }).getByRole('link')).toHaveCount(4);

    const company = page.getByRole('contentinfo').getByRole('region', { name: t.footer.label });
    await expect(company).toContainText('유니콘 주식회사');
    await expect(company).toContainText(t.footer.company.businessNumberLabel);
    await expect(company).toContainText('000-00-00000');
    await expect(company).toContainText(t.footer.company.salesNumberLabel);
    await expect(company).toContainText('제0000-서울강남-00000호');
    await expect(company).not.toContainText(/추후 안내|To be announced|追って/);
  });
}
