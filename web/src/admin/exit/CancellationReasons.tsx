/**
 * What leaving subscribers said (finance: read-ledger): each reason with how many stopped auto-renewal and how many
 * took the retention offer instead, the outcomes, and the latest free-text comments. Read from the log by
 * GET /staff/cancellation-reasons; nothing is derived here.
 */
import { useQuery } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { DataTable } from '../DataTable';
import { useExitT } from './i18n';

type Reasons = components['schemas']['CancellationReasonsOut'];
type ReasonCount = components['schemas']['ReasonCount'];
type ExitComment = components['schemas']['ExitCommentOut'];

function query(since: string, until: string): string {
  const params = new URLSearchParams();
  if (since) params.set('since', `${since}T00:00:00+09:00`);
  if (until) params.set('until', `${until}T00:00:00+09:00`);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export default function CancellationReasons() {
  const t = useExitT();
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [asked, setAsked] = useState('');
  const reasons = useQuery({
    queryKey: ['cancellation-reasons', asked],
    queryFn: () => staffCall<Reasons>('GET', `/cancellation-reasons${asked}`),
  });
  const reasonColumns = useMemo<ColumnDef<ReasonCount>[]>(
    () => [
      { id: 'reason', header: t('reason'), cell: ({ row }) => t(row.original.reason) },
      { accessorKey: 'cancelled', header: t('cancelled') },
      { accessorKey: 'stayed', header: t('stayed') },
    ],
    [t],
  );
  const commentColumns = useMemo<ColumnDef<ExitComment>[]>(
    () => [
      { accessorKey: 'at', header: t('at') },
      { id: 'outcome', header: t('outcome'), cell: ({ row }) => t(row.original.outcome) },
      { id: 'reasons', header: t('reason'), cell: ({ row }) => row.original.reasons.map(t).join(', ') },
      { accessorKey: 'comment', header: t('comment') },
    ],
    [t],
  );
  const data = reasons.data;
  return (
    <section>
      <h1>{t('heading')}</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setAsked(query(since, until));
        }}
      >
        <label>
          {t('since')} <input type="date" value={since} onChange={(event) => setSince(event.target.value)} />
        </label>{' '}
        <label>
          {t('until')} <input type="date" value={until} onChange={(event) => setUntil(event.target.value)} />
        </label>{' '}
        <button type="submit">{t('show')}</button>
      </form>
      {reasons.error ? <p role="alert">{t('failed')}</p> : null}
      {data ? (
        <>
          <dl aria-label={t('outcome')}>
            <dt>{t('cancelled')}</dt>
            <dd data-testid="exit-cancelled">{data.cancelled}</dd>
            <dt>{t('stayed')}</dt>
            <dd data-testid="exit-stayed">{data.stayed}</dd>
            <dt>{t('offersDeclined')}</dt>
            <dd data-testid="exit-declined">{data.offersDeclined}</dd>
            <dt>{t('unanswered')}</dt>
            <dd data-testid="exit-unanswered">{data.unanswered}</dd>
          </dl>
          <DataTable data={data.reasons} columns={reasonColumns} label={t('heading')} />
          <h2>{t('comments')}</h2>
          {data.comments.length > 0 ? (
            <DataTable data={data.comments} columns={commentColumns} label={t('comments')} />
          ) : (
            <p>{t('noComments')}</p>
          )}
        </>
      ) : null}
    </section>
  );
}
