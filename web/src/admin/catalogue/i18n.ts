/** The catalogue page's words in ko, en and ja (its own dictionary; a test checks the three have the same keys). */
import { useContext } from 'react';
import { type AdminLanguage, LanguageContext } from '../i18n';

const en = {
  catalogue: 'Catalogue',
  versions: 'Versions',
  version: 'Version',
  inForce: 'in force',
  effectiveAt: 'Effective from (+09:00)',
  recordedAt: 'Recorded',
  reason: 'Reason',
  shipped: 'shipped',
  newVersion: 'New version',
  newVersionHint: 'Starts from the latest version. Existing subscribers keep their price; a rise reaches them only 30 days after the notice mail, a cut at their next renewal.',
  licence: 'Licence',
  baseDiscount: 'Base discount',
  price: 'Price',
  names: 'Names',
  schedule: 'Schedule this version',
  scheduled: 'Scheduled version',
  needsReason: 'A reason is required.',
};

type CatalogueKey = keyof typeof en;

const ko: Record<CatalogueKey, string> = {
  catalogue: '카탈로그',
  versions: '버전',
  version: '버전',
  inForce: '적용 중',
  effectiveAt: '적용 시작 (+09:00)',
  recordedAt: '기록 시각',
  reason: '사유',
  shipped: '기본 제공',
  newVersion: '새 버전',
  newVersionHint: '최신 버전에서 시작합니다. 기존 구독자는 지금 가격을 유지하며, 인상은 안내 메일 후 30일이 지난 갱신부터, 인하는 다음 갱신부터 적용됩니다.',
  licence: '라이선스',
  baseDiscount: '기본 할인',
  price: '가격',
  names: '이름',
  schedule: '이 버전 예약',
  scheduled: '예약된 버전',
  needsReason: '사유를 입력해 주세요.',
};

const ja: Record<CatalogueKey, string> = {
  catalogue: 'カタログ',
  versions: 'バージョン',
  version: 'バージョン',
  inForce: '適用中',
  effectiveAt: '適用開始 (+09:00)',
  recordedAt: '記録日時',
  reason: '理由',
  shipped: '初期版',
  newVersion: '新しいバージョン',
  newVersionHint: '最新バージョンから始めます。既存の購読者は現在の価格のままです。値上げは案内メールから30日後の更新から、値下げは次回の更新から適用されます。',
  licence: 'ライセンス',
  baseDiscount: '基本割引',
  price: '価格',
  names: '名称',
  schedule: 'このバージョンを予約',
  scheduled: '予約したバージョン',
  needsReason: '理由を入力してください。',
};

export const CATALOGUE_WORDS: Record<AdminLanguage, Record<CatalogueKey, string>> = { ko, en, ja };

export function useCatalogueT(): (key: CatalogueKey) => string {
  const language = useContext(LanguageContext);
  return (key) => CATALOGUE_WORDS[language][key];
}
