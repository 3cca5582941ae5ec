/** As it was: a licence, subscription or payment at a chosen moment, beside how it is now. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Compared, financeCall } from './api';
import { useFinanceT } from './i18n';

export function AsOfPage() {
  const t = useFinanceT();
  const [form, setForm] = useState({ kind: 'payment', key: '', at: '' });
  const [asked, setAsked] = useState<typeof form | null>(null);
  const compared = useQuery({
    queryKey: ['finance-as-of', asked],
    enabled: asked !== null,
    queryFn: () =>
      financeCall<Compared>('GET', `/as-of/${asked?.kind}/${encodeURIComponent(asked?.key ?? '')}?at=${encodeURIComponent(`${asked?.at}:00+09:00`)}`),
  });
  const data = compared.data;
  const fields = data ? [...new Set([...Object.keys(data.then.state), ...Object.keys(data.now.state)])].sort() : [];
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return (
    <section>
      <h1>{t('asOf')}</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setAsked(form);
        }}
      >
        <label>
          {t('kind')}{' '}
          <select value={form.kind} onChange={(event) => setForm({ ...form, kind: event.target.value })}>
            <option value="licence">{t('licence')}</option>
            <option value="subscription">{t('subscription')}</option>
            <option value="payment">{t('payment')}</option>
          </select>
        </label>
        <label>
          {t('key')} <input value={form.key} onChange={(event) => setForm({ ...form, key: event.target.value })} required />
        </label>
        <label>
          {t('moment')} <input type="datetime-local" value={form.at} onChange={(event) => setForm({ ...form, at: event.target.value })} required />
        </label>
        <button type="submit">{t('compare')}</button>
      </form>
      {compared.error ? <p role="alert">{String(compared.error)}</p> : null}
      {data ? (
        <table aria-label={t('asOf')}>
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">{`${t('then')} (${data.then.at}, ${t('version')} ${data.then.version})`}</th>
              <th scope="col">{`${t('now')} (${data.now.at}, ${t('version')} ${data.now.version})`}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => {
              const then = show(data.then.state[field]);
              const now = show(data.now.state[field]);
              return (
                <tr key={field} className={then === now ? undefined : 'finance-changed'}>
                  <th scope="row">{then === now ? field : `${field} *`}</th>
                  <td>{then}</td>
                  <td>{now}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
