/**
 * The exit dialog's words in ko/en/ja (its own dictionary: the labels of the server's reason codes, the question,
 * the one offer). The dialog's two main buttons keep the section's words: "keep auto-renewal" closes and changes
 * nothing, "stop auto-renewal" stops it (issue 29, finding 16).
 */
import type { Lang } from '../../i18n/languages';

export interface ExitText {
  title: string;
  question: string;
  optional: string;
  reasons: Record<string, string>;
  comment: string;
  offerHeading: string;
  /** {percent}, {date}, {offered}, {price} */
  offer: string;
  /** {percent} */
  accept: string;
  offerOnce: string;
  /** {percent}, {offered} */
  stayed: string;
  loadFailed: string;
}

export const EXIT_TEXT = {
  ko: {
    title: '자동 갱신을 해지할까요?',
    question: '해지하시는 이유를 알려 주시면 서비스 개선에 참고하겠습니다.',
    optional: '(선택)',
    reasons: {
      'too-expensive': '가격이 부담돼요',
      'not-using': '잘 사용하지 않아요',
      'missing-feature': '필요한 기능이 없어요',
      'technical-problem': '기술적인 문제가 있어요',
      switching: '다른 서비스로 옮겨요',
      other: '기타',
    },
    comment: '하고 싶은 말씀',
    offerHeading: '떠나시기 전에 한 번만 제안드려요',
    offer: '{date} 다음 갱신을 {percent}% 할인된 {offered}(원래 {price})에 이용하실 수 있습니다.',
    accept: '{percent}% 할인 받고 구독 계속하기',
    offerOnce: '이 제안은 한 번만 드립니다. 해지하시면 다시 표시되지 않습니다.',
    stayed: '구독이 계속됩니다. 다음 갱신은 {percent}% 할인된 {offered}에 결제됩니다.',
    loadFailed: '해지 이유 목록을 불러오지 못했습니다. 그래도 해지할 수 있습니다.',
  },
  en: {
    title: 'Cancel auto-renewal?',
    question: 'Would you tell us why? It helps us improve.',
    optional: '(optional)',
    reasons: {
      'too-expensive': 'It costs too much',
      'not-using': 'I hardly use it',
      'missing-feature': 'A feature I need is missing',
      'technical-problem': 'I had technical problems',
      switching: 'I am switching to another service',
      other: 'Something else',
    },
    comment: 'Anything you would like to add',
    offerHeading: 'One offer before you go',
    offer: 'Your next renewal on {date} can cost {offered} instead of {price}: {percent}% off.',
    accept: 'Stay and get {percent}% off',
    offerOnce: 'We make this offer once: if you cancel, it will not be shown again.',
    stayed: 'Your subscription carries on. The next renewal is charged {offered} ({percent}% off).',
    loadFailed: 'The list of reasons could not be loaded. You can still cancel.',
  },
  ja: {
    title: '自動更新を解除しますか？',
    question: '解除の理由をお聞かせください。サービス改善の参考にします。',
    optional: '(任意)',
    reasons: {
      'too-expensive': '料金が高い',
      'not-using': 'あまり使っていない',
      'missing-feature': '必要な機能がない',
      'technical-problem': '技術的な問題があった',
      switching: '他のサービスに乗り換える',
      other: 'その他',
    },
    comment: 'ご意見',
    offerHeading: 'お別れの前に、一度だけのご提案',
    offer: '{date}の次回更新を{percent}%オフの{offered}(通常{price})でご利用いただけます。',
    accept: '{percent}%オフで継続する',
    offerOnce: 'このご提案は一度だけです。解除すると再び表示されません。',
    stayed: 'サブスクリプションを継続します。次回の更新は{percent}%オフの{offered}で決済されます。',
    loadFailed: '理由の一覧を読み込めませんでした。解除はそのまま行えます。',
  },
} satisfies Record<Lang, ExitText>;
