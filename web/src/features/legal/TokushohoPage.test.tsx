import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PurchasableLicence } from '../../api/models';
import { AppRoutes } from '../../app/routes';
import { forgetIntegrations, INTEGRATIONS_OFF } from '../../config/integrations';
import { renderAtAddress } from '../../test/renderAtAddress';
import { japanesePrices } from './prices';

/** Japan's Act on Specified Commercial Transactions: the disclosure page states every item, from the settings and
 * the catalogue. */

function licence(id: number, life: number, jpy: number): PurchasableLicence {
  return {
    id,
    productCode: 'uncpa',
    life,
    maxDevicesCount: 1,
    prices: [
      { countryCode: 'KR', currency: 'KRW', price: 2900, requestPrice: 2900 },
      { countryCode: 'JP', currency: 'JPY', price: jpy, requestPrice: jpy },
    ],
    localizations: [{ langCode: 'ja', name: 'Android Pro', description: '' }],
    discountFactors: [],
  };
}

const catalogue = [licence(111, 30, 300), licence(121, 365, 2800), licence(131, 36500, 5900)];
const seller = {
  name: 'ユニコーン株式会社',
  address: '大韓民国ソウル特別市江南区テヘラン路123',
  phone: '+82-2-1234-5678',
  email: 'help@unicornpro.example',
  responsible: 'キム・ユニ',
};

function respond(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  forgetIntegrations();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('/purchasable-licenses/new')) return respond(catalogue);
      if (url.includes('/integrations/settings')) return respond({ ...INTEGRATIONS_OFF, japanSeller: seller });
      return new Promise<Response>(() => undefined);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  forgetIntegrations();
});

describe('特定商取引法に基づく表記', () => {
  it('names the seller and states prices with tax, fees, payment, start, cancelling, refunds and renewals', async () => {
    renderAtAddress(<AppRoutes />, '/ja/legal/tokushoho');
    expect(await screen.findByRole('heading', { level: 1, name: '特定商取引法に基づく表記' })).toBeTruthy();
    expect(await screen.findByText(seller.name)).toBeTruthy();
    for (const value of [seller.address, seller.responsible, seller.email]) expect(screen.getByText(value)).toBeTruthy();
    expect(screen.getByText(seller.phone, { exact: false })).toBeTruthy();
    const labels = [...document.querySelectorAll('.tokushoho__table dt')].map((label) => label.textContent);
    expect(labels).toEqual([
      '販売業者',
      '運営統括責任者',
      '所在地',
      '電話番号',
      'メールアドレス',
      '販売価格',
      '商品代金以外の必要料金',
      '支払方法',
      '支払時期',
      '役務の提供時期',
      '定期購入(自動更新)について',
      '申込みの撤回・返品・返金',
      '動作環境',
    ]);
    expect(await screen.findByText('Android Pro(年額・1台): ¥2,800(税込)')).toBeTruthy();
    expect(screen.getByText('Android Pro(月額・1台): 毎月¥300(税込)で自動更新')).toBeTruthy();
  });

  it('prices each licence for Japan with tax, and renews only the monthly and annual ones', () => {
    expect(japanesePrices(catalogue).map((price) => [price.price, price.renewal])).toEqual([
      ['¥300(税込)', '毎月¥300(税込)で自動更新'],
      ['¥2,800(税込)', '毎年¥2,800(税込)で自動更新'],
      ['¥5,900(税込)', undefined],
    ]);
  });
});
