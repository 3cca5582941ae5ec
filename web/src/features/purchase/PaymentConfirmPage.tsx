import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { formatPrice } from '../../display/currency';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useCurrentLocation, useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import type { ConfirmedPurchase, ConfirmedUpgrade, Subscription } from '../../api/models';
import { keyIntentCalls } from '../../billing/browserKeyWindow';
import { clearPendingKeyWindow, keyWindowOutcome, readPendingKeyWindow, settleKeyWindow } from '../../billing/keyWindow';
import { keyWindowDestination } from '../../billing/keyWindowDestination';
import { clearPendingOrder, readPendingOrder, redirectOutcome } from '../../billing/portone';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { featureErrorMessage } from '../../errors/featureError';
import { StatusLine } from '../../ui/StatusLine';
import { AppDownloads } from '../../ui/AppDownloads';
import { postPurchaseConfirm } from './api';
import { settlePayment } from './flow';
import '../../ui/kit.css';

/** State the purchase page hands over after a confirmed payment. */
export interface PaymentConfirmState {
  confirmation?: ConfirmedPurchase;
  /** A subscription started with a new card (billing key). */
  subscription?: Subscription;
  /** The payment upgraded a licence or a subscription (the key and its devices stay). */
  upgraded?: boolean;
  /** What a bought licence's upgrade paid: its plan, amount, credit and payment (the receipt's page). */
  upgrade?: UpgradeSummary;
}

/** The summary of a bought licence's upgrade, from POST /payments/licenses/upgrade/confirm. */
export type UpgradeSummary = Pick<ConfirmedUpgrade, 'merchantUid' | 'licenseName' | 'amount' | 'currency' | 'credit'>;

/**
 * /{lang}/payment/confirm (spec section 2): the result of a purchase, with the licence key, and for
 * a virtual account the account to pay into and its deadline. Reached from the purchase page with
 * the confirmation, or as the gateway's redirect return (imp_uid, merchant_uid, imp_success), which
 * this page confirms itself.
 */
export default function PaymentConfirmPage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const location = useCurrentLocation();
  const handed = (location.state as PaymentConfirmState | null)?.confirmation;
  const subscription = (location.state as PaymentConfirmState | null)?.subscription;
  const handedUpgraded = (location.state as PaymentConfirmState | null)?.upgraded === true;
  const handedUpgrade = (location.state as PaymentConfirmState | null)?.upgrade;
  const [confirmation, setConfirmation] = useState<ConfirmedPurchase | undefined>(handed);
  const [failure, setFailure] = useState<string | null>(null);
  const outcome = handed ? null : redirectOutcome(location.search);
  const [working, setWorking] = useState(outcome !== null);

  useEffect(() => {
    if (handed || subscription) {
      clearPendingOrder();
      return undefined;
    }
    const returned = redirectOutcome(location.search);
    if (!returned) return undefined;
    let live = true;
    const keyWindow = readPendingKeyWindow(returned.merchantUid);
    if (keyWindow) {
      void (async () => {
        const token = await getAccessToken(appStore);
        const settled = await settleKeyWindow(
          keyWindow.intent,
          keyWindowOutcome(returned, keyWindow.customerUid),
          token,
          keyIntentCalls,
        );
        clearPendingKeyWindow();
        if (!live) return;
        const next = keyWindowDestination(settled, paths);
        navigate(next.to, { replace: true, state: next.state });
        setWorking(false);
      })();
      return () => {
        live = false;
      };
    }
    const pending = readPendingOrder(returned.merchantUid);
    void (async () => {
      const token = await getAccessToken(appStore);
      const result = await settlePayment(returned, lang, token, { postConfirm: postPurchaseConfirm });
      if (!live) return;
      if (result.kind === 'confirmed') {
        clearPendingOrder();
        // The gateway's query is replaced by the result, so that a reload does not confirm again.
        navigate(paths.paymentConfirm(), { replace: true, state: { confirmation: result.confirmation } });
        setConfirmation(result.confirmation);
      } else if (pending) {
        navigate(paths.paymentFailure(pending.licenseId, { errorCode: result.error.code }), {
          replace: true,
          state: { gatewayMessage: result.gatewayMessage },
        });
      } else {
        setFailure(featureErrorMessage(t, result.error));
      }
      setWorking(false);
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- The redirect's query is read once, when the page opens.
  }, []);

  if (working) {
    return (
      <section className="content-page content-page--narrow">
        <PageMeta title={t.payments.confirm.heading} />
        <h1 className="page__heading">{t.payments.confirm.heading}</h1>
        <StatusLine>{t.payments.confirm.confirming}</StatusLine>
        <PageLoading />
      </section>
    );
  }

  if (!confirmation && subscription) return <SubscriptionStarted subscription={subscription} upgraded={handedUpgraded} />;

  if (!confirmation) {
    return (
      <section className="content-page content-page--narrow">
        <PageMeta title={failure ? t.payments.failure.heading : t.payments.confirm.heading} />
        <h1 className="page__heading">{failure ? t.payments.failure.heading : t.payments.confirm.heading}</h1>
        {failure ? <StatusLine tone="error">{failure}</StatusLine> : <p>{t.payments.confirm.nothing}</p>}
        <div className="actions">
          <Link className="button button--primary" to={paths.license()}>
            {t.payments.confirm.goLicences}
          </Link>
          <Link className="button button--secondary" to={paths.home()}>
            {t.payments.confirm.goHome}
          </Link>
        </div>
      </section>
    );
  }

  // A phone's return from an upgrade's window is confirmed here, and the confirmation carries the upgrade's summary.
  const upgrade = handedUpgrade ?? confirmation.upgrade ?? undefined;
  const upgraded = handedUpgraded || Boolean(confirmation.upgrade);
  const reserved = confirmation.state === 'reserved';
  const vbank = confirmation.vbank;
  const deadline = vbank ? readTime(vbank.vbankDate) : undefined;

  const c = t.payments.confirm;
  const heading = reserved ? c.reservedHeading : upgraded ? c.upgradedHeading : c.heading;

  return (
    <section className="content-page content-page--narrow">
      <PageMeta title={heading} />
      <h1 className="page__heading">{heading}</h1>
      <StatusLine>{reserved ? c.reserved : upgraded ? c.upgraded : c.paid}</StatusLine>

      {reserved && vbank && (
        <div className="card">
          <h2 className="content-section__heading">{t.payments.confirm.vbankHeading}</h2>
          <dl className="facts">
            <dt>{t.payments.confirm.vbankName}</dt>
            <dd>{vbank.vbankName}</dd>
            <dt>{t.payments.confirm.vbankNum}</dt>
            <dd data-testid="vbank-num">{vbank.vbankNum}</dd>
            <dt>{t.payments.confirm.vbankHolder}</dt>
            <dd>{vbank.vbankHolder}</dd>
            <dt>{t.payments.confirm.vbankDate}</dt>
            <dd>{deadline ? formatDateTime(deadline) : String(vbank.vbankDate)}</dd>
          </dl>
        </div>
      )}

      {upgraded && upgrade && <UpgradePaid upgrade={upgrade} />}

      <div className="card">
        <dl className="facts">
          {confirmation.licenseKey ? (
            <>
              <dt>{t.payments.confirm.licenseKey}</dt>
              <dd className="key-text" data-testid="license-key">
                {confirmation.licenseKey}
              </dd>
            </>
          ) : null}
          <dt>{t.payments.confirm.email}</dt>
          <dd>{confirmation.email}</dd>
        </dl>
      </div>
      {!confirmation.licenseKey && (
        <StatusLine>{format(t.payments.confirm.licenseKeyMailed, { email: confirmation.email })}</StatusLine>
      )}
      {confirmation.accountCreated && (
        <StatusLine>{format(t.payments.confirm.accountCreated, { email: confirmation.email })}</StatusLine>
      )}
      {!reserved && <AppDownloads />}

      <div className="actions">
        {/* A guest's new account has no password yet: login says to set it from the mail first (issue 29, finding 9). */}
        <Link
          className="button button--primary"
          to={confirmation.accountCreated ? paths.login() : paths.license()}
          state={confirmation.accountCreated ? { from: paths.license(), setPasswordFor: confirmation.email } : undefined}
        >
          {t.payments.confirm.goLicences}
        </Link>
        <Link className="button button--secondary" to={paths.home()}>
          {t.payments.confirm.goHome}
        </Link>
      </div>
    </section>
  );
}

/** What a bought licence's upgrade paid: the plan, the amount, the credit taken off, and the receipt's page. */
function UpgradePaid({ upgrade }: { upgrade: UpgradeSummary }) {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const c = t.payments.confirm;
  const currency = upgrade.currency ?? 'KRW';
  return (
    <div className="card" data-testid="upgrade-summary">
      <dl className="facts">
        {upgrade.licenseName && (
          <div>
            <dt>{c.plan}</dt>
            <dd>{upgrade.licenseName}</dd>
          </div>
        )}
        {upgrade.amount != null && (
          <div>
            <dt>{c.price}</dt>
            <dd data-testid="charged-amount">{formatPrice(upgrade.amount, currency, lang)}</dd>
          </div>
        )}
        {upgrade.credit ? (
          <div>
            <dt>{c.credit}</dt>
            <dd data-testid="upgrade-credit">−{formatPrice(upgrade.credit, currency, lang)}</dd>
          </div>
        ) : null}
      </dl>
      {upgrade.merchantUid && (
        <p>
          <Link to={paths.purchaseHistoryDetail(upgrade.merchantUid)}>{c.receipt}</Link>
        </p>
      )}
    </div>
  );
}

/** The result of a subscription started (or upgraded, perhaps to a lifetime licence): its licence key and next payment. */
function SubscriptionStarted({ subscription, upgraded }: { subscription: Subscription; upgraded: boolean }) {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const c = t.payments.confirm;
  const next = readTime(subscription.nextPaymentAt);
  const until = readTime(subscription.paidUntil);
  const card = [subscription.cardName, subscription.cardNumber].filter(Boolean).join(' ');
  // An upgrade to a lifetime plan ends the subscription: the licence was bought for good.
  const becameLifetime = upgraded && subscription.status === 'ended';
  // What was charged now: an upgrade's first period less the credit (the renewal price is another figure); a new
  // subscription's first charge is its price.
  const charged = upgraded ? (subscription.chargedAmount ?? null) : subscription.price;
  const renews = !becameLifetime && subscription.isScheduled && (upgraded || subscription.chargedAmount != null);
  return (
    <section className="content-page content-page--narrow">
      <PageMeta title={upgraded ? c.upgradedHeading : c.subscribedHeading} />
      <h1 className="page__heading">{upgraded ? c.upgradedHeading : c.subscribedHeading}</h1>
      <StatusLine>
        {becameLifetime ? c.subscriptionBecameLifetime : upgraded ? c.subscriptionUpgraded : c.subscribed}
      </StatusLine>
      <div className="card">
        <p>
          <strong>{subscription.licenseName}</strong>
        </p>
        <dl className="facts">
          {subscription.licenseKey && (
            <div>
              <dt>{c.licenseKey}</dt>
              <dd className="key-text" data-testid="license-key">
                {subscription.licenseKey}
              </dd>
            </div>
          )}
          {charged !== null && (
            <div>
              <dt>{c.price}</dt>
              <dd data-testid="charged-amount">{formatPrice(charged, subscription.currency, lang)}</dd>
            </div>
          )}
          {renews && (
            <div>
              <dt>{c.renewalPrice}</dt>
              <dd data-testid="renewal-price">{formatPrice(subscription.price, subscription.currency, lang)}</dd>
            </div>
          )}
          {until && !becameLifetime && (
            <div>
              <dt>{c.paidUntil}</dt>
              <dd>{formatDateTime(until)}</dd>
            </div>
          )}
          {next && subscription.isScheduled && (
            <div>
              <dt>{c.nextPaymentAt}</dt>
              <dd data-testid="next-payment">{formatDateTime(next)}</dd>
            </div>
          )}
          {card && (
            <div>
              <dt>{c.card}</dt>
              <dd>{card}</dd>
            </div>
          )}
        </dl>
      </div>
      <AppDownloads />
      <div className="actions">
        <Link className="button button--primary" to={paths.license()}>
          {c.goLicences}
        </Link>
        <Link className="button button--secondary" to={paths.home()}>
          {c.goHome}
        </Link>
      </div>
    </section>
  );
}
