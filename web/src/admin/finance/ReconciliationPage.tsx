/** The daily reconciliation with PortOne: each day's runs (beat's every morning, members' re-runs) and their
 * mismatches, each explained with a note or sent to support as a refund request. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Mismatch, type ReconciliationDay, financeCall } from './api';
import { useFinanceT } from './i18n';

function MismatchRow({ day, run, mismatch }: { day: string; run: number; mismatch: Mismatch }) {
  const t = useFinanceT();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const name = `${mismatch.merchantUid} ${mismatch.kind}`;
  const resolve = useMutation({
    mutationFn: (how: 'explain' | 'refund-request') =>
      financeCall<ReconciliationDay>('POST', `/reconciliation/${day}/${how}`, { run, merchantUid: mismatch.merchantUid, kind: mismatch.kind, note }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['finance-reconciliation'] }),
  });
  return (
    <tr>
      <th scope="row">{mismatch.merchantUid}</th>
      <td>{mismatch.kind}</td>
      <td>{mismatch.ours}</td>
      <td>{mismatch.gateway}</td>
      <td>
        {mismatch.resolution ? (
          <span>{`${mismatch.resolution.outcome === 'explained' ? t('explained') : t('referred')}: ${mismatch.resolution.note}`}</span>
        ) : (
          <>
            <label>
              {`${t('note')} ${name}`} <input value={note} onChange={(event) => setNote(event.target.value)} />
            </label>
            <button type="button" disabled={!note.trim()} onClick={() => resolve.mutate('explain')}>
              {`${t('markExplained')} ${name}`}
            </button>
            <button type="button" disabled={!note.trim()} onClick={() => resolve.mutate('refund-request')}>
              {`${t('openRefundRequest')} ${name}`}
            </button>
            {resolve.error ? <span role="alert">{String(resolve.error)}</span> : null}
          </>
        )}
      </td>
    </tr>
  );
}

export function ReconciliationPage() {
  const t = useFinanceT();
  const client = useQueryClient();
  const days = useQuery({ queryKey: ['finance-reconciliation'], queryFn: () => financeCall<ReconciliationDay[]>('GET', '/reconciliation') });
  const [day, setDay] = useState('');
  const [reason, setReason] = useState('');
  const rerun = useMutation({
    mutationFn: () => financeCall<ReconciliationDay>('POST', `/reconciliation/${day}/run`, { reason }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['finance-reconciliation'] }),
  });
  return (
    <section>
      <h1>{t('reconciliation')}</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          rerun.mutate();
        }}
      >
        <label>
          {t('dayToRun')} <input type="date" value={day} onChange={(event) => setDay(event.target.value)} required />
        </label>
        <label>
          {t('reason')} <input value={reason} onChange={(event) => setReason(event.target.value)} required />
        </label>
        <button type="submit" disabled={!reason.trim()}>
          {t('rerun')}
        </button>
        {rerun.error ? <span role="alert">{String(rerun.error)}</span> : null}
      </form>
      {days.data && days.data.length === 0 ? <p>{t('noRuns')}</p> : null}
      {(days.data ?? []).map((found) => (
        <article key={found.day} aria-label={found.day}>
          <h2>{found.day}</h2>
          {found.runs.map((run) => (
            <section key={run.run} aria-label={`${found.day} ${t('run')} ${run.run}`}>
              <h3>
                {`${t('run')} ${run.run} — ${run.trigger === 'schedule' ? t('schedule') : t('staffTrigger')} — ${run.at} — ${t('compared')}: ${run.compared}`}
                {run.reason ? ` — ${run.reason}` : ''}
              </h3>
              {run.mismatches.length === 0 ? (
                <p>{t('noMismatches')}</p>
              ) : (
                <table aria-label={`${t('mismatches')} ${found.day} ${run.run}`}>
                  <thead>
                    <tr>
                      <th scope="col">{t('merchantUid')}</th>
                      <th scope="col">{t('kind')}</th>
                      <th scope="col">{t('ours')}</th>
                      <th scope="col">{t('gateway')}</th>
                      <th scope="col">{t('note')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {run.mismatches.map((mismatch) => (
                      <MismatchRow key={`${mismatch.merchantUid}-${mismatch.kind}`} day={found.day} run={run.run} mismatch={mismatch} />
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          ))}
        </article>
      ))}
    </section>
  );
}
