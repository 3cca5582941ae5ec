/** Revenue at a glance: the ledger by business day, week or month, by currency, product, plan and payment method,
 * coupons given away; every figure drills down to the movements of money behind it, each to its payment. */
import { useQuery } from '@tanstack/react-query';
import { useContext, useState } from 'react';
import { Link } from 'wouter';
import { LanguageContext } from '../i18n';
import { type BreakdownRow, type Entry, type Ledger, type SeriesRow, financeCall, query } from './api';
import { money, useFinanceT } from './i18n';
import { RevenueChart } from './RevenueChart';

type Pick = { period?: string; currency: string; kind?: 'revenue' | 'refund'; product?: string; plan?: string; payMethod?: string };

const DIMENSIONS = [
  ['currency', 'currency'],
  ['product', 'product'],
  ['plan', 'plan'],
  ['payMethod', 'payMethod'],
] as const;

export function RevenuePage() {
  const t = useFinanceT();
  const language = useContext(LanguageContext);
  const [form, setForm] = useState({ since: '', until: '', by: 'day' });
  const [asked, setAsked] = useState(form);
  const [picked, setPicked] = useState<Pick | null>(null);
  const ledger = useQuery({
    queryKey: ['finance-ledger', asked],
    queryFn: () => financeCall<Ledger>('GET', `/ledger${query({ since: asked.since, until: asked.until, by: asked.by })}`),
  });
  const data = ledger.data;
  const entries = useQuery({
    queryKey: ['finance-entries', picked, data?.since, data?.until, asked.by],
    enabled: picked !== null && data !== undefined,
    queryFn: () =>
      financeCall<Entry[]>(
        'GET',
        `/ledger/entries${query({
          period: picked?.period,
          by: asked.by,
          since: picked?.period ? undefined : data?.since,
          until: picked?.period ? undefined : data?.until,
          currency: picked?.currency,
          kind: picked?.kind,
          product: picked?.product,
          plan: picked?.plan,
          payMethod: picked?.payMethod,
        })}`,
      ),
  });
  const figure = (amount: number, currency: string, name: string, pick: Pick) => (
    <button type="button" aria-label={name} data-amount={amount} onClick={() => setPicked(pick)}>
      {money(amount, currency, language)}
    </button>
  );
  const seriesRow = (row: SeriesRow) => (
    <tr key={`${row.period}-${row.currency}`}>
      <th scope="row">{row.period}</th>
      <td>{row.currency}</td>
      <td>{figure(row.revenue, row.currency, `${t('revenue')} ${row.period} ${row.currency}`, { period: row.period, currency: row.currency, kind: 'revenue' })}</td>
      <td>{figure(row.refunds, row.currency, `${t('refunds')} ${row.period} ${row.currency}`, { period: row.period, currency: row.currency, kind: 'refund' })}</td>
      <td>{money(row.net, row.currency, language)}</td>
      <td>{row.payments}</td>
      <td>{row.refunded}</td>
    </tr>
  );
  const breakdownTable = (name: (typeof DIMENSIONS)[number], rows: BreakdownRow[]) => (
    <table key={name[0]} aria-label={t(name[1])}>
      <caption>{t(name[1])}</caption>
      <thead>
        <tr>
          <th scope="col">{t(name[1])}</th>
          <th scope="col">{t('currency')}</th>
          <th scope="col">{t('revenue')}</th>
          <th scope="col">{t('refunds')}</th>
          <th scope="col">{t('net')}</th>
          <th scope="col">{t('payments')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.currency}-${row.key}`}>
            <th scope="row">{row.label ?? row.key ?? '—'}</th>
            <td>{row.currency}</td>
            <td>
              {figure(row.revenue, row.currency, `${t('revenue')} ${t(name[1])} ${row.label ?? row.key} ${row.currency}`, {
                currency: row.currency,
                kind: 'revenue',
                ...(name[0] === 'currency' ? {} : { [name[1]]: row.key }),
              })}
            </td>
            <td>{money(row.refunds, row.currency, language)}</td>
            <td>{money(row.net, row.currency, language)}</td>
            <td>{row.payments}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <section>
      <h1>{t('revenue')}</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setPicked(null);
          setAsked(form);
        }}
      >
        <label>
          {t('since')} <input type="date" value={form.since} onChange={(event) => setForm({ ...form, since: event.target.value })} />
        </label>
        <label>
          {t('until')} <input type="date" value={form.until} onChange={(event) => setForm({ ...form, until: event.target.value })} />
        </label>
        <label>
          {t('by')}{' '}
          <select value={form.by} onChange={(event) => setForm({ ...form, by: event.target.value })}>
            <option value="day">{t('day')}</option>
            <option value="week">{t('week')}</option>
            <option value="month">{t('month')}</option>
          </select>
        </label>
        <button type="submit">{t('show')}</button>
      </form>
      {ledger.error ? <p role="alert">{String(ledger.error)}</p> : null}
      {data ? (
        <>
          <p>
            {data.since} – {data.until}
          </p>
          <RevenueChart rows={data.series} labels={{ revenue: t('revenue'), refunds: t('refunds') }} label={t('chartLabel')} />
          <table aria-label={t('tableAlternative')} className="finance-figures">
            <caption>{t('tableAlternative')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('period')}</th>
                <th scope="col">{t('currency')}</th>
                <th scope="col">{t('revenue')}</th>
                <th scope="col">{t('refunds')}</th>
                <th scope="col">{t('net')}</th>
                <th scope="col">{t('payments')}</th>
                <th scope="col">{t('refunded')}</th>
              </tr>
            </thead>
            <tbody>{data.series.map(seriesRow)}</tbody>
          </table>
          {DIMENSIONS.map((name) => breakdownTable(name, data.breakdown[name[0]]))}
          <table aria-label={t('coupons')}>
            <caption>{t('coupons')}</caption>
            <tbody>
              {data.coupons.map((row) => (
                <tr key={row.currency}>
                  <th scope="row">{row.currency}</th>
                  <td>{`${t('givenAway')}: ${money(row.givenAway, row.currency, language)}`}</td>
                  <td>{`${t('payments')}: ${row.payments}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {picked && entries.data ? (
        <table aria-label={t('behind')}>
          <caption>{`${t('behind')}: ${[picked.period, picked.currency, picked.kind].filter(Boolean).join(' ')}`}</caption>
          <thead>
            <tr>
              <th scope="col">{t('merchantUid')}</th>
              <th scope="col">{t('kind')}</th>
              <th scope="col">{t('at')}</th>
              <th scope="col">{t('amount')}</th>
              <th scope="col">{t('plan')}</th>
              <th scope="col">{t('payMethod')}</th>
              <th scope="col">{t('buyer')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.data.map((entry) => (
              <tr key={`${entry.merchantUid}-${entry.kind}-${entry.at}`}>
                <th scope="row">
                  <Link href={`/payments/${encodeURIComponent(entry.merchantUid)}`} aria-label={`${t('openPayment')} ${entry.merchantUid}`}>
                    {entry.merchantUid}
                  </Link>
                </th>
                <td>{entry.kind === 'revenue' ? t('revenue') : t('refunds')}</td>
                <td>{entry.at}</td>
                <td data-amount={entry.amount}>{money(entry.amount, entry.currency, language)}</td>
                <td>{entry.planName || entry.plan}</td>
                <td>{entry.payMethod}</td>
                <td>{entry.buyerEmail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
