/** The support desk's words in ko, en and ja (reports, proofs, flags, the licence-key mail); a test checks the three
 * have the same keys. The back office's language comes from its LanguageContext. */
import { useContext } from 'react';
import { LanguageContext, type AdminLanguage } from '../i18n';

const en = {
  reports: 'Reports',
  state: 'State',
  open: 'Open',
  handled: 'Handled',
  all: 'All',
  kind: 'Kind',
  ad: 'Ad not blocked',
  misblock: 'Blocked by mistake',
  bug: 'Bug',
  since: 'From',
  until: 'Until',
  submittedAt: 'Submitted',
  product: 'Product',
  page: 'Page',
  comment: 'Comment',
  email: 'Email',
  images: 'Images',
  image: 'Image',
  handledReason: 'How it was handled',
  closeReason: 'What was done',
  closeReport: 'Close as handled',
  total: 'reports',
  previous: 'Previous',
  next: 'Next',
  noReports: 'No report matches.',
  proof: 'Proof',
  noProof: 'no proof here (holds a secret)',
  flags: 'Flags',
  flagged: 'Key seen on {devices} distinct devices within {days} days',
  resendLicenceKey: 'Resend the licence key',
  done: 'Done.',
  failed: 'Refused',
};

type SupportKey = keyof typeof en;

const ko: Record<SupportKey, string> = {
  reports: '신고',
  state: '상태',
  open: '미처리',
  handled: '처리됨',
  all: '전체',
  kind: '종류',
  ad: '차단되지 않은 광고',
  misblock: '잘못된 차단',
  bug: '버그',
  since: '시작',
  until: '끝',
  submittedAt: '접수 시각',
  product: '제품',
  page: '페이지',
  comment: '내용',
  email: '이메일',
  images: '이미지',
  image: '이미지',
  handledReason: '처리 내용',
  closeReason: '처리한 일',
  closeReport: '처리 완료로 닫기',
  total: '건',
  previous: '이전',
  next: '다음',
  noReports: '조건에 맞는 신고가 없습니다.',
  proof: '증명',
  noProof: '증명 없음 (비밀 정보 포함)',
  flags: '경고',
  flagged: '{days}일 안에 서로 다른 기기 {devices}대에서 사용된 키',
  resendLicenceKey: '라이선스 키 다시 보내기',
  done: '완료했습니다.',
  failed: '거절됨',
};

const ja: Record<SupportKey, string> = {
  reports: '報告',
  state: '状態',
  open: '未対応',
  handled: '対応済み',
  all: 'すべて',
  kind: '種類',
  ad: 'ブロックされなかった広告',
  misblock: '誤ブロック',
  bug: '不具合',
  since: '開始',
  until: '終了',
  submittedAt: '受付日時',
  product: '製品',
  page: 'ページ',
  comment: '内容',
  email: 'メール',
  images: '画像',
  image: '画像',
  handledReason: '対応内容',
  closeReason: '行った対応',
  closeReport: '対応済みにする',
  total: '件',
  previous: '前へ',
  next: '次へ',
  noReports: '条件に合う報告はありません。',
  proof: '証明',
  noProof: '証明なし (秘密情報を含む)',
  flags: '警告',
  flagged: '{days}日以内に{devices}台の異なる端末で使われたキー',
  resendLicenceKey: 'ライセンスキーを再送',
  done: '完了しました。',
  failed: '拒否されました',
};

export const SUPPORT_CATALOGUES: Record<AdminLanguage, Record<SupportKey, string>> = { ko, en, ja };

/** The support desk's words in the back office's language. */
export function useSupportT(): (key: SupportKey, values?: Record<string, string | number>) => string {
  const language = useContext(LanguageContext);
  return (key, values) =>
    Object.entries(values ?? {}).reduce(
      (text, [name, value]) => text.replace(`{${name}}`, String(value)),
      SUPPORT_CATALOGUES[language][key],
    );
}
