/** The cancellation reasons page's words in ko, en and ja (its own dictionary; the reason codes are the server's). */
import { useContext } from 'react';
import { LanguageContext } from '../i18n';

const en = {
  heading: 'Cancellation reasons',
  nav: 'Cancellation reasons',
  since: 'From',
  until: 'Before',
  show: 'Show',
  cancelled: 'Stopped auto-renewal',
  stayed: 'Took the retention offer',
  unanswered: 'Said nothing',
  offersDeclined: 'Declined the offer',
  reason: 'Reason',
  comments: 'Latest comments',
  at: 'When',
  outcome: 'Outcome',
  comment: 'Comment',
  noComments: 'No comments yet.',
  failed: 'The reasons could not be read.',
  'too-expensive': 'It costs too much',
  'not-using': 'Hardly used',
  'missing-feature': 'A feature is missing',
  'technical-problem': 'Technical problems',
  switching: 'Switching to another service',
  other: 'Something else',
};

export type ExitKey = keyof typeof en;

const ko: Record<ExitKey, string> = {
  heading: '해지 이유',
  nav: '해지 이유',
  since: '시작',
  until: '끝(미포함)',
  show: '보기',
  cancelled: '자동 갱신 해지',
  stayed: '유지 제안 수락',
  unanswered: '응답 없음',
  offersDeclined: '제안 거절',
  reason: '이유',
  comments: '최근 의견',
  at: '시각',
  outcome: '결과',
  comment: '의견',
  noComments: '아직 의견이 없습니다.',
  failed: '해지 이유를 읽지 못했습니다.',
  'too-expensive': '가격 부담',
  'not-using': '잘 사용하지 않음',
  'missing-feature': '필요한 기능 없음',
  'technical-problem': '기술적 문제',
  switching: '다른 서비스로 이동',
  other: '기타',
};

const ja: Record<ExitKey, string> = {
  heading: '解除の理由',
  nav: '解除の理由',
  since: '開始',
  until: '終了(含まない)',
  show: '表示',
  cancelled: '自動更新を解除',
  stayed: '継続の提案を受諾',
  unanswered: '回答なし',
  offersDeclined: '提案を辞退',
  reason: '理由',
  comments: '最近のご意見',
  at: '日時',
  outcome: '結果',
  comment: 'ご意見',
  noComments: 'ご意見はまだありません。',
  failed: '解除の理由を読み込めませんでした。',
  'too-expensive': '料金が高い',
  'not-using': 'あまり使っていない',
  'missing-feature': '必要な機能がない',
  'technical-problem': '技術的な問題',
  switching: '他サービスへ乗り換え',
  other: 'その他',
};

export const EXIT_CATALOGUES = { ko, en, ja };

/** The page's words in the back office's language; an unknown reason code reads as itself. */
export function useExitT(): (key: string) => string {
  const language = useContext(LanguageContext);
  const words: Record<string, string> = EXIT_CATALOGUES[language];
  return (key) => words[key] ?? key;
}
