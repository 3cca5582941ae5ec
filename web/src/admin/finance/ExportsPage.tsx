/** Exports of events (JSONL, CSV, Parquet by time range and topic) and the month-end close pack, as jobs with
 * progress, kept for download with their manifests. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../api/schema';
import { type JobStarted, financeCall } from './api';
import { useFinanceT } from './i18n';
import { JobFiles, JobList, JobProgress, useJob } from './jobs';

const KST = '+09:00';

type ExportFormat = components['schemas']['ExportFormat'];
/** Every format the API writes, by its schema (a format added or dropped there fails the type check here). */
const FORMAT_NAMES: Record<ExportFormat, string> = { jsonl: 'JSONL', csv: 'CSV', parquet: 'Parquet' };

export function ExportsPage() {
  const t = useFinanceT();
  const [form, setForm] = useState<{ format: ExportFormat; since: string; until: string; topics: string }>({
    format: 'jsonl',
    since: '',
    until: '',
    topics: '',
  });
  const [month, setMonth] = useState('');
  const [exportId, setExportId] = useState<string | null>(null);
  const [packId, setPackId] = useState<string | null>(null);
  const exported = useJob(exportId);
  const packed = useJob(packId);
  const start = useMutation({
    mutationFn: () =>
      financeCall<JobStarted>('POST', '/exports', {
        format: form.format,
        since: form.since ? `${form.since}:00${KST}` : null,
        until: form.until ? `${form.until}:00${KST}` : null,
        topics: form.topics.split(',').map((topic) => topic.trim()).filter(Boolean),
      }),
    onSuccess: (started) => setExportId(started.jobId),
  });
  const pack = useMutation({
    mutationFn: () => financeCall<JobStarted>('POST', '/close-packs', { month }),
    onSuccess: (started) => setPackId(started.jobId),
  });
  return (
    <section>
      <h1>{t('exports')}</h1>
      <form
        aria-label={t('exportEvents')}
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate();
        }}
      >
        <h2>{t('exportEvents')}</h2>
        <label>
          {t('format')}{' '}
          <select value={form.format} onChange={(event) => setForm({ ...form, format: event.target.value as ExportFormat })}>
            {Object.entries(FORMAT_NAMES).map(([format, name]) => (
              <option key={format} value={format}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('since')} <input type="datetime-local" value={form.since} onChange={(event) => setForm({ ...form, since: event.target.value })} />
        </label>
        <label>
          {t('until')} <input type="datetime-local" value={form.until} onChange={(event) => setForm({ ...form, until: event.target.value })} />
        </label>
        <label>
          {t('topics')} <input value={form.topics} onChange={(event) => setForm({ ...form, topics: event.target.value })} />
        </label>
        <button type="submit">{t('startExport')}</button>
        {start.error ? <span role="alert">{String(start.error)}</span> : null}
        {exported.data ? <JobProgress job={exported.data} label={t('exportEvents')} /> : null}
        {exported.data?.state === 'done' ? <JobFiles job={exported.data} /> : null}
      </form>
      <form
        aria-label={t('closePack')}
        onSubmit={(event) => {
          event.preventDefault();
          pack.mutate();
        }}
      >
        <h2>{t('closePack')}</h2>
        <label>
          {t('monthToClose')} <input type="month" value={month} onChange={(event) => setMonth(event.target.value)} required />
        </label>
        <button type="submit">{t('makePack')}</button>
        {pack.error ? <span role="alert">{String(pack.error)}</span> : null}
        {packed.data ? <JobProgress job={packed.data} label={t('closePack')} /> : null}
        {packed.data?.state === 'done' ? <JobFiles job={packed.data} /> : null}
      </form>
      <JobList />
    </section>
  );
}
