/**
 * /admin/reports: customers' reports with filters (open or handled, kind, dates), newest first, each with its
 * images (signed links that expire within the hour), and closing one as handled with what was done. The filters
 * and the page go to the server (GET /staff/reports); the table sorts and filters what it shows.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { DataTable } from '../DataTable';
import { useSupportT } from './i18n';

type StaffReport = components['schemas']['StaffReport'];
type ReportsPage = components['schemas']['ReportsPage'];

const PAGE = 50;

/** The day a date input names, as the start of that day in the browser's time zone (ISO, for the API). */
function dayStart(day: string, plusDays = 0): string | null {
  if (!day) return null;
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date + plusDays).toISOString();
}

export function reportsQuery(filters: { state: string; problem: string; since: string; until: string }, offset: number): string {
  const query = new URLSearchParams({ offset: String(offset), limit: String(PAGE) });
  if (filters.state) query.set('state', filters.state);
  if (filters.problem) query.set('problem', filters.problem);
  const since = dayStart(filters.since);
  const until = dayStart(filters.until, 1); // the until day is included
  if (since) query.set('since', since);
  if (until) query.set('until', until);
  return `/reports?${query.toString()}`;
}

export function ReportsPage() {
  const t = useSupportT();
  const client = useQueryClient();
  const [filters, setFilters] = useState({ state: 'open', problem: '', since: '', until: '' });
  const [offset, setOffset] = useState(0);
  const [reason, setReason] = useState('');
  const path = reportsQuery(filters, offset);
  const reports = useQuery({ queryKey: ['reports', path], queryFn: () => staffCall<ReportsPage>('GET', path) });
  const close = useMutation({
    mutationFn: (reportId: string) => staffCall<void>('POST', `/reports/${reportId}/close`, { reason }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['reports'] }),
  });
  const choose = (name: keyof typeof filters, value: string) => {
    setFilters({ ...filters, [name]: value });
    setOffset(0);
  };
  const columns = useMemo<ColumnDef<StaffReport>[]>(
    () => [
      { accessorKey: 'submittedAt', header: t('submittedAt') },
      { accessorKey: 'product', header: t('product') },
      { id: 'problem', accessorFn: (row) => t(row.problem as 'ad'), header: t('kind') },
      { accessorKey: 'url', header: t('page'), cell: ({ row }) => row.original.url ?? '' },
      { accessorKey: 'comment', header: t('comment'), cell: ({ row }) => row.original.comment ?? '' },
      { accessorKey: 'email', header: t('email'), cell: ({ row }) => row.original.email ?? '' },
      {
        id: 'images',
        header: t('images'),
        cell: ({ row }) =>
          row.original.images.map((image, index) => (
            <a key={image.link} href={image.link} target="_blank" rel="noreferrer">
              <img
                src={image.link}
                alt={`${t('image')} ${index + 1}: ${row.original.url ?? row.original.reportId}`}
                width={Math.min(image.width, 120)}
                loading="lazy"
              />
            </a>
          )),
      },
      {
        id: 'state',
        header: t('state'),
        accessorFn: (row) => (row.handledAt ? `${t('handled')}: ${row.handledReason ?? ''}` : t('open')),
      },
      {
        id: 'close',
        header: '',
        cell: ({ row }) =>
          row.original.handledAt ? null : (
            <button type="button" onClick={() => close.mutate(row.original.reportId)}>
              {`${t('closeReport')}: ${row.original.url ?? row.original.reportId}`}
            </button>
          ),
      },
    ],
    [t, close],
  );
  const total = reports.data?.total ?? 0;
  return (
    <section>
      <h1>{t('reports')}</h1>
      <form aria-label={t('reports')} onSubmit={(event) => event.preventDefault()}>
        <label>
          {t('state')}{' '}
          <select value={filters.state} onChange={(event) => choose('state', event.target.value)}>
            <option value="open">{t('open')}</option>
            <option value="handled">{t('handled')}</option>
            <option value="">{t('all')}</option>
          </select>
        </label>{' '}
        <label>
          {t('kind')}{' '}
          <select value={filters.problem} onChange={(event) => choose('problem', event.target.value)}>
            <option value="">{t('all')}</option>
            <option value="ad">{t('ad')}</option>
            <option value="misblock">{t('misblock')}</option>
            <option value="bug">{t('bug')}</option>
          </select>
        </label>{' '}
        <label>
          {t('since')} <input type="date" value={filters.since} onChange={(event) => choose('since', event.target.value)} />
        </label>{' '}
        <label>
          {t('until')} <input type="date" value={filters.until} onChange={(event) => choose('until', event.target.value)} />
        </label>
      </form>
      <label>
        {t('closeReason')} <input value={reason} onChange={(event) => setReason(event.target.value)} size={40} />
      </label>
      <p role="status" aria-live="polite">{reports.data ? `${total} ${t('total')}` : ''}</p>
      {reports.data && reports.data.reports.length === 0 ? <p>{t('noReports')}</p> : null}
      {reports.data && reports.data.reports.length > 0 ? (
        <DataTable data={reports.data.reports} columns={columns} label={t('reports')} />
      ) : null}
      {total > PAGE ? (
        <p>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            {t('previous')}
          </button>{' '}
          {offset / PAGE + 1} / {Math.ceil(total / PAGE)}{' '}
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            {t('next')}
          </button>
        </p>
      ) : null}
      {close.error ? <p role="alert">{`${t('failed')}: ${close.error.message}`}</p> : null}
      {close.isSuccess ? <p role="status">{t('done')}</p> : null}
      {reports.error ? <p role="alert">{`${t('failed')}: ${reports.error.message}`}</p> : null}
    </section>
  );
}

/** The back office's navigation link to the reports. */
export function ReportsNavLink() {
  const t = useSupportT();
  return <Link href="/reports">{t('reports')}</Link>;
}
