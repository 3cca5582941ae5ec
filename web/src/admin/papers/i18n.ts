/** The words of finance's tax-invoice queue in ko, en and ja (a test checks the three have the same keys). */
import { useContext } from 'react';
import { LanguageContext } from '../i18n';

const en = {
  taxInvoices: 'Tax invoices',
  lead: 'Tax-invoice requests of business buyers (bank transfers and virtual accounts). Issue them through the e-tax-invoice service with the export.',
  export: 'Export CSV',
  requestedAt: 'Requested',
  withdrawnAt: 'Withdrawn (refunded in full)',
  merchantUid: 'Order',
  businessNumber: 'Business no.',
  companyName: 'Company',
  representative: 'Representative',
  email: 'E-mail',
  amount: 'Amount',
  none: 'No request.',
};

export type TaxInvoicesKey = keyof typeof en;

const ko: Record<TaxInvoicesKey, string> = {
  taxInvoices: '세금계산서',
  lead: '사업자 구매자의 세금계산서 요청입니다(계좌이체·가상계좌). 내보낸 파일로 전자세금계산서 서비스에서 발행하세요.',
  export: 'CSV 내보내기',
  requestedAt: '요청 일시',
  withdrawnAt: '철회 (전액 환불)',
  merchantUid: '주문 번호',
  businessNumber: '사업자등록번호',
  companyName: '상호',
  representative: '대표자',
  email: '이메일',
  amount: '금액',
  none: '요청이 없습니다.',
};

const ja: Record<TaxInvoicesKey, string> = {
  taxInvoices: '税金計算書',
  lead: '事業者の購入者からの税金計算書の依頼です（口座振替・バーチャル口座）。書き出したファイルで電子税金計算書サービスから発行してください。',
  export: 'CSVを書き出す',
  requestedAt: '依頼日時',
  withdrawnAt: '取り下げ（全額返金）',
  merchantUid: '注文番号',
  businessNumber: '事業者登録番号',
  companyName: '商号',
  representative: '代表者',
  email: 'メール',
  amount: '金額',
  none: '依頼はありません。',
};

export const TAX_INVOICES_CATALOGUES = { en, ko, ja };

export function useTaxInvoicesT(): (key: TaxInvoicesKey) => string {
  const language = useContext(LanguageContext);
  return (key) => TAX_INVOICES_CATALOGUES[language][key];
}
