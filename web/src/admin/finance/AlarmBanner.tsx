/** The back office's banner when the log failed its newest verification (members who read the ledger see it). */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { type Job, financeCall } from './api';
import { useFinanceT } from './i18n';

export function AlarmBanner() {
  const t = useFinanceT();
  const alarm = useQuery({
    queryKey: ['finance-alarm'],
    queryFn: () => financeCall<{ alarm: Job | null }>('GET', '/alarm'),
    refetchInterval: 30_000,
  });
  const failed = alarm.data?.alarm;
  if (!failed?.result) return null;
  const bad = failed.result.badNotificationId;
  return (
    <div role="alert" style={{ background: '#a01919', color: '#fff', padding: '0.6rem 1rem' }}>
      <strong>{t('alarm')}</strong> — {String(failed.result.message)}
      {bad !== null && bad !== undefined ? ` (${t('alarmEvent')}: ${String(bad)})` : ''}{' '}
      <Link href="/finance/integrity" style={{ color: '#fff' }}>{t('integrity')}</Link>
    </div>
  );
}
