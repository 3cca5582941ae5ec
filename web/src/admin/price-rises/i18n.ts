/** The price-rise answers page's words in ko, en and ja (its own dictionary; answers are the server's codes). */
import { useContext } from 'react';
import { LanguageContext } from '../i18n';

const en = {
  heading: 'Price rises: consent',
  nav: 'Price rises',
  version: 'Catalogue version',
  asked: 'Asked',
  agreed: 'Agreed',
  declined: 'Declined',
  pending: 'Not answered',
  lapsed: 'Lapsed (auto-renewal stopped)',
  answer: 'Answer',
  subscriber: 'Account',
  licence: 'Licence',
  prices: 'Old → new',
  changesAt: 'Change',
  answeredAt: 'Answered',
  remindedAt: 'Reminded',
  none: 'No price rise was asked about yet.',
  failed: 'The answers could not be read.',
  show: 'Show who',
};

export type PriceRiseKey = keyof typeof en;

const ko: Record<PriceRiseKey, string> = {
  heading: '가격 인상 동의',
  nav: '가격 인상',
  version: '카탈로그 버전',
  asked: '요청',
  agreed: '동의',
  declined: '거절',
  pending: '응답 없음',
  lapsed: '미동의로 자동 갱신 중단',
  answer: '응답',
  subscriber: '계정',
  licence: '라이선스',
  prices: '기존 → 새 가격',
  changesAt: '변경일',
  answeredAt: '응답 시각',
  remindedAt: '다시 알림',
  none: '아직 동의를 요청한 가격 인상이 없습니다.',
  failed: '응답을 읽지 못했습니다.',
  show: '대상 보기',
};

const ja: Record<PriceRiseKey, string> = {
  heading: '価格改定への同意',
  nav: '価格改定',
  version: 'カタログのバージョン',
  asked: '依頼',
  agreed: '同意',
  declined: '辞退',
  pending: '未回答',
  lapsed: '未同意のため自動更新停止',
  answer: '回答',
  subscriber: 'アカウント',
  licence: 'ライセンス',
  prices: '旧 → 新',
  changesAt: '変更日',
  answeredAt: '回答日時',
  remindedAt: '再送',
  none: '同意を依頼した価格改定はまだありません。',
  failed: '回答を読み込めませんでした。',
  show: '対象を表示',
};

export const PRICE_RISE_CATALOGUES = { ko, en, ja };

/** The page's words in the back office's language; an unknown code reads as itself. */
export function usePriceRiseT(): (key: string) => string {
  const language = useContext(LanguageContext);
  const words: Record<string, string> = PRICE_RISE_CATALOGUES[language];
  return (key) => words[key] ?? key;
}
