/**
 * The final confirmation's words in ko/en/ja (its own dictionary, like the exit dialog's): the six items Japan's Act
 * on Specified Commercial Transactions (Article 12-6) has the screen before paying show in one place, which every
 * language gets (docs/legal.md). Prices say they include tax: VAT 포함, 税込.
 */
import type { Lang } from '../i18n/languages';

export interface ConfirmationText {
  heading: string;
  item: string;
  price: string;
  /** {price} */
  taxIncluded: string;
  payment: string;
  /** {method} */
  payOnce: string;
  /** {method} */
  payNowThenEachRenewal: string;
  payByDeposit: string;
  starts: string;
  startsNow: string;
  startsOnDeposit: string;
  cancel: string;
  cancelSubscription: string;
  cancelPurchase: string;
  policy: string;
  renewal: string;
  /** {cycle}, {price} (the price already says it includes tax) */
  renews: string;
  cycles: { monthly: string; annual: string; days: string };
  noRenewal: string;
}

export const CONFIRMATION_TEXT: Record<Lang, ConfirmationText> = {
  ko: {
    heading: '결제 전 최종 확인',
    item: '구매 상품',
    price: '결제 금액',
    taxIncluded: '{price} (VAT 포함)',
    payment: '결제 시기와 수단',
    payOnce: '지금 {method}(으)로 한 번 결제합니다.',
    payNowThenEachRenewal: '첫 기간은 지금 {method}(으)로 결제하고, 이후 갱신일마다 같은 수단으로 자동 결제합니다.',
    payByDeposit: '발급되는 가상계좌에 입금 기한까지 입금합니다.',
    starts: '이용 시작',
    startsNow: '결제가 완료되는 즉시 라이선스 키가 발급되어 바로 이용할 수 있습니다.',
    startsOnDeposit: '입금이 확인되는 즉시 라이선스가 활성화됩니다.',
    cancel: '해지와 청약 철회',
    cancelSubscription:
      '라이선스 페이지에서 언제든 두 번의 클릭으로 자동 갱신을 해지할 수 있고, 해지해도 결제한 기간이 끝날 때까지 이용할 수 있습니다. 첫 결제 후 30일 안에는 환불을 요청할 수 있습니다.',
    cancelPurchase: '결제 후 30일 안에 라이선스 페이지에서 환불을 요청할 수 있습니다.',
    policy: '구매 정책 보기',
    renewal: '자동 갱신',
    renews: '{cycle} {price}에 자동으로 갱신되며, 해지할 때까지 계속됩니다.',
    cycles: { monthly: '매월', annual: '매년', days: '기간마다' },
    noRenewal: '자동으로 갱신되지 않으며, 추가 결제는 없습니다.',
  },
  en: {
    heading: 'Check before you pay',
    item: 'What you buy',
    price: 'Price',
    taxIncluded: '{price} (tax included)',
    payment: 'When and how you pay',
    payOnce: 'Once, now, by {method}.',
    payNowThenEachRenewal: 'The first period now by {method}, then automatically on each renewal date by the same method.',
    payByDeposit: 'By a deposit into the virtual account issued, before its deadline.',
    starts: 'When it starts',
    startsNow: 'At once: the licence key is issued as soon as the payment completes.',
    startsOnDeposit: 'As soon as your deposit is confirmed.',
    cancel: 'Cancelling and withdrawal',
    cancelSubscription:
      'Stop auto-renewal any time on the licence page, in two clicks; the period paid for stays yours to its end. Within 30 days of the first payment you may ask for your money back.',
    cancelPurchase: 'Within 30 days of paying you may ask for your money back on the licence page.',
    policy: 'Read the purchase policy',
    renewal: 'Renewal',
    renews: 'Renews automatically {cycle} at {price} until you stop it.',
    cycles: { monthly: 'every month', annual: 'every year', days: 'every period' },
    noRenewal: 'Does not renew: nothing more is charged.',
  },
  ja: {
    heading: 'ご注文内容の最終確認',
    item: '購入内容',
    price: 'お支払い金額',
    taxIncluded: '{price}(税込)',
    payment: '支払時期・支払方法',
    payOnce: '今すぐ{method}で1回お支払いいただきます。',
    payNowThenEachRenewal: '初回は今すぐ{method}で、以後は各更新日に同じ方法で自動的にお支払いいただきます。',
    payByDeposit: '発行される仮想口座へ、入金期限までにお振り込みいただきます。',
    starts: '提供開始時期',
    startsNow: '決済完了後ただちにライセンスキーが発行され、すぐにご利用いただけます。',
    startsOnDeposit: 'ご入金の確認後ただちにご利用いただけます。',
    cancel: '解約・申込みの撤回',
    cancelSubscription:
      'ライセンスページからいつでも2回のクリックで自動更新を解除できます。解除後もお支払い済みの期間の終わりまでご利用いただけます。初回決済から30日以内であれば返金をご請求いただけます。',
    cancelPurchase: 'ご購入から30日以内であれば、ライセンスページから返金をご請求いただけます。',
    policy: '購入ポリシーを見る',
    renewal: '自動更新',
    renews: '{cycle}{price}で自動更新され、解除するまで続きます。',
    cycles: { monthly: '毎月', annual: '毎年', days: '期間ごとに' },
    noRenewal: '自動更新はありません。追加のお支払いは発生しません。',
  },
};
