/** One payment behind a figure: its fields, every event of it in the log, and their proofs as downloads. */
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import { type PaymentDetail, fileUrl, financeCall } from './api';
import { useFinanceT } from './i18n';

// The payment's fields shown, each with its label.
const SHOWN = [
  ['name', 'product'],
  ['state', 'state'],
  ['amount', 'amount'],
  ['originalAmount', 'listPrice'],
  ['cancelAmount', 'cancelledAmount'],
  ['currency', 'currency'],
  ['payMethod', 'payMethod'],
  ['couponCode', 'coupon'],
  ['orderedAt', 'orderedAt'],
  ['paidAt', 'paidAt'],
  ['buyerEmail', 'buyer'],
] as const;

export function PaymentPage() {
  const t = useFinanceT();
  const { merchantUid = '' } = useParams<{ merchantUid: string }>();
  const uid = decodeURIComponent(merchantUid);
  const detail = useQuery({
    queryKey: ['finance-payment', uid],
    queryFn: () => financeCall<PaymentDetail>('GET', `/payments/${encodeURIComponent(uid)}`),
  });
  if (detail.error) return <p role="alert">{String(detail.error)}</p>;
  if (!detail.data) return null;
  const payment = detail.data.payment;
  return (
    <section>
      <h1>{`${t('payment')} ${uid}`}</h1>
      <dl className="finance-fields">
        {SHOWN.map(([key, label]) => (
          <div key={key}>
            <dt>{t(label)}</dt>
            <dd>{String(payment[key] ?? '—')}</dd>
          </div>
        ))}
      </dl>
      <p>{t('proofHint')}</p>
      <p>
        <a href={fileUrl(`/proofs/payments/${encodeURIComponent(uid)}`)} download>
          {t('downloadPaymentProof')}
        </a>
      </p>
      <table aria-label={t('events')}>
        <caption>{t('events')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('position')}</th>
            <th scope="col">{t('topic')}</th>
            <th scope="col">{t('at')}</th>
            <th scope="col">{t('downloadProof')}</th>
          </tr>
        </thead>
        <tbody>
          {detail.data.events.map((event) => (
            <tr key={event.notificationId}>
              <th scope="row">{event.notificationId}</th>
              <td>{event.topic}</td>
              <td>{event.at}</td>
              <td>
                <a href={fileUrl(`/proofs/events/${event.notificationId}`)} download aria-label={`${t('downloadProof')} ${event.topic} ${event.notificationId}`}>
                  {t('downloadProof')}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
