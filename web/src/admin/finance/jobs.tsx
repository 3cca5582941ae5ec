/** Finance's background jobs: a job followed to its end with a progress bar, and the list with downloads. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type Job, fileUrl, financeCall } from './api';
import { useFinanceT } from './i18n';

/** A job still waiting for a worker or running on one. */
export function underWay(job: Job): boolean {
  return job.state === 'queued' || job.state === 'running';
}

export function useJob(jobId: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['finance-job', jobId],
    enabled: jobId !== null,
    queryFn: async () => {
      const job = await financeCall<Job>('GET', `/jobs/${jobId}`);
      if (!underWay(job)) void client.invalidateQueries({ queryKey: ['finance-jobs'] });
      return job;
    },
    refetchInterval: (found) => (found.state.data && !underWay(found.state.data) ? false : 500),
  });
}

export function JobProgress({ job, label }: { job: Job; label: string }) {
  const t = useFinanceT();
  const states = { queued: t('queued'), running: t('running'), done: t('done'), failed: t('failed'), stalled: t('stalled') };
  return (
    <p>
      <progress aria-label={label} max={Math.max(job.total, 1)} value={job.state === 'done' ? Math.max(job.total, 1) : job.done} />{' '}
      <span role="status">{`${label}: ${states[job.state]} (${job.done} / ${job.total})`}</span>
    </p>
  );
}

export function JobFiles({ job }: { job: Job }) {
  const t = useFinanceT();
  return (
    <>
      {job.files.map((name) => (
        <a key={name} href={fileUrl(`/jobs/${job.jobId}/files/${encodeURIComponent(name)}`)} download={name} aria-label={`${t('download')} ${name}`}>
          {name}
        </a>
      ))}
    </>
  );
}

export function JobList({ kind }: { kind?: string }) {
  const t = useFinanceT();
  const jobs = useQuery({ queryKey: ['finance-jobs', kind], queryFn: () => financeCall<Job[]>('GET', `/jobs${kind ? `?kind=${kind}` : ''}`) });
  return (
    <table aria-label={t('jobs')}>
      <caption>{t('jobs')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('at')}</th>
          <th scope="col">{t('kind')}</th>
          <th scope="col">{t('state')}</th>
          <th scope="col">{t('progress')}</th>
          <th scope="col">{t('files')}</th>
        </tr>
      </thead>
      <tbody>
        {(jobs.data ?? []).map((job) => (
          <tr key={job.jobId}>
            <td>{job.createdAt}</td>
            <td>{`${job.kind} ${JSON.stringify(job.params)}`}</td>
            <td>{job.state}</td>
            <td>{`${job.done} / ${job.total}`}</td>
            <td>
              <JobFiles job={job} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
