import type { ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { formatPrice } from '../../display/currency';
import { discountText } from '../../display/discount';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { RequireScope } from '../../session/RequireScope';
import { ExternalLink } from '../../ui/ExternalLink';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { PaymentPapers } from './PaymentPapers';
import { getPayment } from './api';
import { cardBrandName, labelOf, payMethodKey, paymentStatus, pgProviderName, recordDiscountParts } from './display';
import type { PaymentRecord } from '../../api/models';
import { formatServerTime } from '../../display/serverTimes';
import { featureErrorMessage, isNotFoundGoingHome } from '../../errors/featureError';
import { useBearerLoad } from '../../session/useBearerLoad';
import { AlertDialog } from '../../ui/AlertDialog';
import { useAlert } from '../../ui/useAlert';
import '../../ui/kit.css';

/** /{lang}/purchase-history/{merchantUid}: one payment with every field of the record. */
export default function PaymentDetailPage() {
  return (
    <RequireScope>
      <PaymentDetail />
    </RequireScope>
  );
}

function PaymentDetail() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const { merchantUid = '' } = useParams();
  const { alert, show, close } = useAlert();
  const { state } = useBearerLoad<PaymentRecord>(
    (token) => getPayment(merchantUid, token),
    (error) =>
      show({
        title: t.payments.errorTitles.history,
        message: isNotFoundGoingHome(error) ? t.payments.notFoundGoingHome : featureErrorMessage(t, error),
        then: isNotFoundGoingHome(error) ? () => navigate(paths.purchaseHistory(), { replace: true }) : undefined,
      }),
    `payment-${merchantUid}`,
  );
  const h = t.payments.history;

  if (state.status === 'loading') return <PageLoading />;
  const back = (
    <p>
      <Link to={paths.purchaseHistory()}>{h.back}</Link>
    </p>
  );
  if (state.status === 'failed') {
    return (
      <section className="content-page content-page--narrow">
        <PageMeta title={h.detailHeading} />
        {back}
        <h1 className="page__heading">{h.detailHeading}</h1>
        <AlertDialog alert={alert} onClose={close} />
      </section>
    );
  }

  const record = state.data;
  const money = (amount: number | null | undefined) =>
    amount === null || amount === undefined ? undefined : formatPrice(amount, record.currency, lang);
  const time = formatServerTime;
  const discount = discountText({ ...recordDiscountParts(record), currency: record.currency }, lang);
  const rows: [string, ReactNode][] = [
    [h.merchantUid, record.merchantUid],
    [h.status, <span data-testid="payment-status">{labelOf(t.payments.statuses, paymentStatus(record))}</span>],
    [h.amount, money(record.amount)],
    [h.originalAmount, record.originalAmount !== record.amount ? money(record.originalAmount) : undefined],
    [h.discount, discount || undefined],
    [h.coupon, record.couponCode ?? undefined],
    [h.cancelAmount, record.cancelAmount ? money(record.cancelAmount) : undefined],
    [h.payMethod, labelOf(t.payments.payMethods, payMethodKey(record))],
    [h.pgProvider, pgProviderName(t.payments.pgProviders, record.pgProvider)],
    [h.card, [cardBrandName(record.cardName), record.cardNumber].filter(Boolean).join(' ') || undefined],
    [h.bank, record.bankName ?? undefined],
    [h.vbank, [record.vbankName, record.vbankNum, record.vbankHolder].filter(Boolean).join(' ') || undefined],
    [h.vbankDate, record.vbankNum ? time(record.vbankDate) : undefined],
    [h.paidAt, time(record.paidAt)],
    [h.failedAt, time(record.failedAt)],
    [h.failReason, record.failReason ?? undefined],
  ];

  return (
    <section className="content-page content-page--narrow">
      <PageMeta title={h.detailHeading} />
      {back}
      <h1 className="page__heading">{record.name}</h1>
      <div className="card">
        <dl className="facts">
          {rows
            .filter(([, value]) => value !== undefined && value !== '')
            .map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
        </dl>
      </div>
      {record.refunds && record.refunds.length > 0 && (
        <section className="content-section card" aria-labelledby="payment-refunds-heading">
          <h2 id="payment-refunds-heading" className="content-section__heading">
            {h.refunds}
          </h2>
          <ul className="card-list">
            {record.refunds.map((refund, index) => (
              <li key={index} data-testid="payment-refund">
                {format(h.refundLine, { amount: money(refund.amount) ?? '', date: time(refund.refundedAt) ?? '' })}
                {refund.source === 'gateway' && <span className="hint"> ({h.refundAtGateway})</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <PaymentPapers merchantUid={record.merchantUid} />
      <div className="actions">
        {record.receiptUrl && <ExternalLink href={record.receiptUrl}>{h.receipt}</ExternalLink>}
        {record.userLicenseId && <Link to={paths.licenseDetail(record.userLicenseId)}>{h.licence}</Link>}
      </div>
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
