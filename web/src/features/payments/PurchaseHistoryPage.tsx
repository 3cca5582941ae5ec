import { Link } from 'wouter';
import { formatPrice } from '../../display/currency';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { RequireScope } from '../../session/RequireScope';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { getPaymentHistory } from './api';
import { latestRefund, labelOf, payMethodKey, paymentStatus } from './display';
import type { PaymentRecord } from '../../api/models';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { featureErrorMessage } from '../../errors/featureError';
import { useBearerLoad } from '../../session/useBearerLoad';
import { AlertDialog } from '../../ui/AlertDialog';
import { useAlert } from '../../ui/useAlert';
import '../../ui/kit.css';

/** Purchase history (spec section 2), reached from the My Account menu: the user's payments, newest first. */
export default function PurchaseHistoryPage() {
  return (
    <RequireScope>
      <PurchaseHistory />
    </RequireScope>
  );
}

function PurchaseHistory() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const { alert, show, close } = useAlert();
  const { state } = useBearerLoad<PaymentRecord[]>(
    (token) => getPaymentHistory(token),
    (error) => show({ title: t.payments.errorTitles.history, message: featureErrorMessage(t, error) }),
    'payments',
  );
  const h = t.payments.history;
  // Refunded or partly refunded: how much came back in all, and when it last did.
  const statusText = (record: PaymentRecord) => {
    const status = labelOf(t.payments.statuses, paymentStatus(record));
    const refund = latestRefund(record);
    const at = readTime(refund?.refundedAt);
    if (!record.refundState || record.refundState === 'refunding' || !at) return status;
    const amount = formatPrice(record.cancelAmount, record.currency, lang);
    return format(h.refundSummary, { status, amount, date: formatDateTime(at) });
  };

  return (
    <section className="content-page">
      <PageMeta title={h.heading} />
      <h1 className="page__heading">{h.heading}</h1>
      {state.status === 'loading' ? (
        <PageLoading />
      ) : state.status === 'failed' || state.data.length === 0 ? (
        <div className="card">
          <p>{h.empty}</p>
          <Link className="button button--primary" to={paths.purchase()}>
            {h.goPurchase}
          </Link>
        </div>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{h.date}</th>
              <th scope="col">{h.item}</th>
              <th scope="col">{h.amount}</th>
              <th scope="col">{h.payMethod}</th>
              <th scope="col">{h.status}</th>
            </tr>
          </thead>
          <tbody>
            {state.data.map((record) => {
              const when = readTime(record.paidAt) ?? readTime(record.failedAt) ?? readTime(record.vbankIssuedAt);
              return (
                <tr key={record.merchantUid}>
                  <td>{when ? formatDateTime(when) : '-'}</td>
                  <td>
                    <Link to={paths.purchaseHistoryDetail(record.merchantUid)}>{record.name}</Link>
                  </td>
                  <td>{formatPrice(record.amount, record.currency, lang)}</td>
                  <td>{labelOf(t.payments.payMethods, payMethodKey(record))}</td>
                  <td data-testid="history-status">{statusText(record)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
