/** The log's integrity: the verifier key, the latest signed checkpoints, verify now (a job with progress, its verdict
 * recorded), consistency between two checkpoints and the inclusion proof of any event or payment, as downloads. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Integrity, type JobStarted, fileUrl, financeCall } from './api';
import { useFinanceT } from './i18n';
import { JobProgress, underWay, useJob } from './jobs';

export function IntegrityPage() {
  const t = useFinanceT();
  const client = useQueryClient();
  const integrity = useQuery({ queryKey: ['finance-integrity'], queryFn: () => financeCall<Integrity>('GET', '/integrity') });
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId);
  const verify = useMutation({
    mutationFn: () => financeCall<JobStarted>('POST', '/integrity/verify'),
    onSuccess: (started) => setJobId(started.jobId),
  });
  if (job.data && !underWay(job.data) && integrity.data?.verifications[0]?.jobId !== job.data.jobId) {
    void client.invalidateQueries({ queryKey: ['finance-integrity'] });
    void client.invalidateQueries({ queryKey: ['finance-alarm'] });
  }
  const [sizes, setSizes] = useState({ old: '', new: '' });
  const [eventId, setEventId] = useState('');
  const [merchantUid, setMerchantUid] = useState('');
  const data = integrity.data;
  return (
    <section>
      <h1>{t('integrity')}</h1>
      {data ? (
        <>
          <p>
            {t('verifierKey')}: <code>{data.verifierKey}</code>
          </p>
          <p>{`${t('treeSize')}: ${data.treeSize}`}</p>
          <button type="button" onClick={() => verify.mutate()} disabled={job.data !== undefined && underWay(job.data)}>
            {t('verifyNow')}
          </button>
          {job.data ? <JobProgress job={job.data} label={t('verifying')} /> : null}
          {job.data?.result ? (
            <p role={job.data.result.ok ? 'status' : 'alert'}>
              {`${job.data.result.ok ? t('verified') : t('failedVerification')}: ${String(job.data.result.message ?? job.data.result.error)}`}
            </p>
          ) : null}
          <table aria-label={t('verifications')}>
            <caption>{t('verifications')}</caption>
            <tbody>
              {data.verifications.map((found) => (
                <tr key={found.jobId}>
                  <td>{found.finishedAt ?? found.createdAt}</td>
                  <td>{found.result ? (found.result.ok ? t('verified') : t('failedVerification')) : found.state}</td>
                  <td>{found.result ? String(found.result.message ?? found.result.error) : `${found.done} / ${found.total}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table aria-label={t('checkpoints')}>
            <caption>{t('checkpoints')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('treeSize')}</th>
                <th scope="col">{t('signedAt')}</th>
                <th scope="col">{t('rootHash')}</th>
              </tr>
            </thead>
            <tbody>
              {data.checkpoints.map((checkpoint) => (
                <tr key={checkpoint.treeSize}>
                  <th scope="row">{checkpoint.treeSize}</th>
                  <td>{checkpoint.signedAt}</td>
                  <td>
                    <code>{checkpoint.rootHash}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h2>{t('consistency')}</h2>
      <label>
        {t('olderSize')} <input inputMode="numeric" value={sizes.old} onChange={(event) => setSizes({ ...sizes, old: event.target.value })} />
      </label>
      <label>
        {t('newerSize')} <input inputMode="numeric" value={sizes.new} onChange={(event) => setSizes({ ...sizes, new: event.target.value })} />
      </label>
      {sizes.old && sizes.new ? (
        <a href={fileUrl(`/integrity/consistency?old=${encodeURIComponent(sizes.old)}&new=${encodeURIComponent(sizes.new)}`)} download>
          {t('downloadConsistency')}
        </a>
      ) : null}
      <h2>{t('inclusion')}</h2>
      <label>
        {t('notificationId')} <input inputMode="numeric" value={eventId} onChange={(event) => setEventId(event.target.value)} />
      </label>
      {eventId ? (
        <a href={fileUrl(`/proofs/events/${encodeURIComponent(eventId)}`)} download>
          {`${t('downloadProof')} ${eventId}`}
        </a>
      ) : null}
      <label>
        {t('merchantUid')} <input value={merchantUid} onChange={(event) => setMerchantUid(event.target.value)} />
      </label>
      {merchantUid ? (
        <a href={fileUrl(`/proofs/payments/${encodeURIComponent(merchantUid)}`)} download>
          {`${t('downloadProof')} ${merchantUid}`}
        </a>
      ) : null}
    </section>
  );
}
