/** The back office's banner when the log failed its newest verification (members who read the ledger see it). */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useContext } from 'react';
import { LanguageContext } from '../i18n';
import { type Alarm, financeCall } from './api';

// Its own few words: the banner is in the back office's first load, finance's catalogue is not.
const WORDS = {
  en: { alarm: 'Alarm: the log failed verification', alarmEvent: 'first bad event', integrity: 'Integrity' },
  ko: { alarm: '경보: 로그 검증에 실패했습니다', alarmEvent: '처음 잘못된 이벤트', integrity: '무결성' },
  ja: { alarm: '警報：ログの検証に失敗しました', alarmEvent: '最初の不正なイベント', integrity: '完全性' },
};

export function AlarmBanner() {
  const words = WORDS[useContext(LanguageContext)];
  const alarm = useQuery({
    queryKey: ['finance-alarm'],
    queryFn: () => financeCall<Alarm>('GET', '/alarm'),
    refetchInterval: 30_000,
  });
  const failed = alarm.data?.alarm;
  if (!failed?.result) return null;
  const bad = failed.result.badNotificationId;
  return (
    <div role="alert" style={{ background: '#a01919', color: '#fff', padding: '0.6rem 1rem' }}>
      <strong>{words.alarm}</strong> — {String(failed.result.message)}
      {bad !== null && bad !== undefined ? ` (${words.alarmEvent}: ${String(bad)})` : ''}{' '}
      <Link href="/finance/integrity" style={{ color: '#fff' }}>{words.integrity}</Link>
    </div>
  );
}
