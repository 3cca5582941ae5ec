import { describe, expect, it } from 'vitest';
import { paths } from '../../routing/paths';

describe('paths of the purchase, licence and payment pages', () => {
  it('builds the confirm and failure pages of a payment', () => {
    expect(paths.paymentConfirm({ lang: 'ko' })).toBe('/ko/payment/confirm');
    expect(paths.paymentFailure({ lang: 'en' }, 121, { errorCode: 'STOP' })).toBe('/en/payment/121?errorCode=STOP');
    expect(paths.paymentFailure({ lang: 'ja', search: '?code=C' }, 121, { errorCode: -300 })).toBe(
      '/ja/payment/121?code=C&errorCode=-300',
    );
  });

  it('builds licence and purchase-history details, escaping ids', () => {
    expect(paths.licenseDetail({ lang: 'ko' }, '7f1c-uuid')).toBe('/ko/license/7f1c-uuid');
    expect(paths.purchaseHistoryDetail({ lang: 'en' }, 'm_2026/1')).toBe('/en/purchase-history/m_2026%2F1');
  });
});
