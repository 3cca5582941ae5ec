/** Staff actions audit: every staff event by member, action and day, each with its inclusion proof. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type StaffAction, fileUrl, financeCall, query } from './api';
import { useFinanceT } from './i18n';

export function StaffAuditPage() {
  const t = useFinanceT();
  const [form, setForm] = useState({ member: '', action: '', since: '', until: '' });
  const [asked, setAsked] = useState(form);
  const actions = useQuery({
    queryKey: ['finance-staff-actions', asked],
    queryFn: () => financeCall<StaffAction[]>('GET', `/staff-actions${query(asked)}`),
  });
  return (
    <section>
      <h1>{t('staffAudit')}</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setAsked(form);
        }}
      >
        <label>
          {t('member')} <input value={form.member} onChange={(event) => setForm({ ...form, member: event.target.value })} />
        </label>
        <label>
          {t('action')} <input value={form.action} onChange={(event) => setForm({ ...form, action: event.target.value })} />
        </label>
        <label>
          {t('since')} <input type="date" value={form.since} onChange={(event) => setForm({ ...form, since: event.target.value })} />
        </label>
        <label>
          {t('until')} <input type="date" value={form.until} onChange={(event) => setForm({ ...form, until: event.target.value })} />
        </label>
        <button type="submit">{t('filterActions')}</button>
      </form>
      {actions.error ? <p role="alert">{String(actions.error)}</p> : null}
      <table aria-label={t('staffAudit')}>
        <thead>
          <tr>
            <th scope="col">{t('at')}</th>
            <th scope="col">{t('member')}</th>
            <th scope="col">{t('action')}</th>
            <th scope="col">{t('subject')}</th>
            <th scope="col">{t('reason')}</th>
            <th scope="col">{t('details')}</th>
            <th scope="col">{t('downloadProof')}</th>
          </tr>
        </thead>
        <tbody>
          {(actions.data ?? []).map((action) => (
            <tr key={action.notificationId}>
              <td>{action.at}</td>
              <td>{action.memberId}</td>
              <td>{action.action}</td>
              <td>{action.subject}</td>
              <td>{action.reason}</td>
              <td>
                {Object.entries(action.details)
                  .map(([key, value]) => `${key}: ${value ?? '—'}`)
                  .join(', ')}
              </td>
              <td>
                <a href={fileUrl(`/proofs/events/${action.notificationId}`)} download aria-label={`${t('downloadProof')} ${action.notificationId}`}>
                  {action.notificationId}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
