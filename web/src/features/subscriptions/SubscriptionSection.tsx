/**
 * The subscription part of the licence detail page (spec sections 4-5): next payment, price,
 * licence, payment method and auto-renewal; cancel auto-renewal, resume with the previous or a new
 * card, change the payment method. Licences without a subscription (404) show nothing.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'react-router-dom';
import { formatPrice } from '../../display/currency';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import type { BillingKey, CardBody, Subscription } from '../../api/models';
import { changePaymentMethod } from '../../billing/api';
import { CardFields } from '../../billing/CardFields';
import { cardSchema, EMPTY_CARD, expiryYears, toCardBody, type CardForm } from '../../billing/cardSchema';
import type { KeyWindowSettlement } from '../../billing/keyWindow';
import type { SubscriptionReturnState } from '../../billing/keyWindowDestination';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { featureErrorMessage, isSilentLoadError, toFeatureError, type FeatureError } from '../../errors/featureError';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import {
  addBillingKey,
  cancelAutoRenewal,
  getBillingKeys,
  getSubscription,
  resumeWithNewCard,
  resumeWithPreviousCard,
} from './api';
import { paymentMethodText, subscriptionView } from './display';
import { KeyWindowButtons } from './KeyWindowButtons';
import '../../ui/kit.css';

type Panel = 'none' | 'resumeNewCard' | 'changeMethod';
type ErrorTitle = 'load' | 'resume' | 'cancel' | 'register' | 'change';

export function SubscriptionSection({ userLicenseId, onChanged }: { userLicenseId: string; onChanged?: () => void }) {
  const t = useT();
  const lang = useLang();
  const headingId = useId();
  const { alert, show, close } = useAlert();
  const [subscription, setSubscription] = useState<Subscription | null | undefined>(undefined);
  const [panel, setPanel] = useState<Panel>('none');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const refused = (title: ErrorTitle, error: FeatureError) =>
    show({ title: t.subscriptions.errorTitles[title], message: featureErrorMessage(t, error) });
  const fail = (title: ErrorTitle, error: unknown) => refused(title, toFeatureError(error));

  // A phone that left for a PG window comes back here with the outcome (see destinations.ts).
  const returned = useLocation().state as SubscriptionReturnState | null;
  useEffect(() => {
    if (returned?.subscriptionNotice) {
      setNotice(returned.subscriptionNotice === 'resumed' ? t.subscriptions.resumed : t.subscriptions.changed);
    }
    if (returned?.subscriptionError?.code === 'STOP') setNotice(t.subscriptions.windowClosed);
    else if (returned?.subscriptionError) refused('register', returned.subscriptionError);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Read once, when the page opens.
  }, []);

  useEffect(() => {
    let live = true;
    setSubscription(undefined);
    void (async () => {
      try {
        const found = await getSubscription(userLicenseId, await getAccessToken(appStore));
        if (live) setSubscription(found);
      } catch (error) {
        if (!live) return;
        setSubscription(null);
        if (!isSilentLoadError(toFeatureError(error))) fail('load', error);
      }
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `fail` is re-created by every render; the licence says when to load.
  }, [userLicenseId]);

  const updated = (next: Subscription, message: string) => {
    setSubscription(next);
    setPanel('none');
    setNotice(message);
    onChanged?.();
  };

  const windowSettled = (settled: KeyWindowSettlement) => {
    if (settled.kind === 'updated') {
      updated(settled.subscription, settled.intent.kind === 'resume' ? t.subscriptions.resumed : t.subscriptions.changed);
    } else if (settled.kind === 'failed' && settled.error.code === 'STOP') {
      setNotice(t.subscriptions.windowClosed);
    } else if (settled.kind === 'failed') {
      refused(settled.intent.kind === 'resume' ? 'resume' : 'register', settled.error);
    }
  };

  /** Runs a call with the access token; failures show the alert with `title`. */
  const run = async (title: ErrorTitle, call: (token: string | null) => Promise<void>) => {
    setBusy(true);
    setNotice(null);
    try {
      await call(await getAccessToken(appStore));
    } catch (error) {
      fail(title, error);
    } finally {
      setBusy(false);
    }
  };

  if (!subscription) return <AlertDialog alert={alert} onClose={close} />;

  const view = subscriptionView(subscription);
  const nextPayment = readTime(subscription.nextPaymentAt);
  const paidUntil = readTime(subscription.paidUntil);
  const paidUntilText = paidUntil ? formatDateTime(paidUntil) : t.subscriptions.noCard;
  const autoRenewal =
    view === 'renewing' ? t.subscriptions.autoRenewalOn : view === 'ended' ? t.subscriptions.ended : t.subscriptions.autoRenewalOff;

  return (
    <section className="content-section licence-subscription" aria-labelledby={headingId}>
      <h2 id={headingId} className="content-section__heading">
        {t.subscriptions.heading}
      </h2>
      <StatusLine>{notice}</StatusLine>
      <div className="card">
        <dl className="facts">
          <dt>{t.subscriptions.licenseName}</dt>
          <dd>{subscription.licenseName}</dd>
          {view === 'renewing' && nextPayment && (
            <>
              <dt>{t.subscriptions.nextPayment}</dt>
              <dd data-testid="subscription-next-payment">{formatDateTime(nextPayment)}</dd>
            </>
          )}
          {view !== 'renewing' && paidUntil && (
            <>
              <dt>{t.subscriptions.paidUntil}</dt>
              <dd data-testid="subscription-paid-until">{formatDateTime(paidUntil)}</dd>
            </>
          )}
          <dt>{t.subscriptions.price}</dt>
          <dd>{formatPrice(subscription.price, subscription.currency, lang)}</dd>
          <dt>{t.subscriptions.paymentMethod}</dt>
          <dd data-testid="subscription-card">{paymentMethodText(subscription, t.subscriptions.noCard)}</dd>
          <dt>{t.subscriptions.autoRenewal}</dt>
          <dd data-testid="subscription-auto-renewal">{autoRenewal}</dd>
        </dl>
        <div className="button-row">
          {view === 'renewing' ? (
            <>
              <Button variant="secondary" disabled={busy} onClick={() => setConfirming(true)}>
                {t.subscriptions.cancel}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => setPanel(panel === 'changeMethod' ? 'none' : 'changeMethod')}>
                {t.subscriptions.changeMethod}
              </Button>
            </>
          ) : (
            <>
              <Button
                loading={busy}
                onClick={() =>
                  void run('resume', async (token) =>
                    updated(await resumeWithPreviousCard(userLicenseId, token), t.subscriptions.resumed),
                  )
                }
              >
                {view === 'ended' ? t.subscriptions.resubscribePrevious : t.subscriptions.resumePrevious}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => setPanel(panel === 'resumeNewCard' ? 'none' : 'resumeNewCard')}>
                {view === 'ended' ? t.subscriptions.resubscribeNewCard : t.subscriptions.resumeNewCard}
              </Button>
            </>
          )}
        </div>
      </div>

      {panel === 'resumeNewCard' && (
        <>
          <CardPanel
            submitLabel={t.subscriptions.submitResume}
            onCancel={() => setPanel('none')}
            onSubmit={(card) =>
              run('resume', async (token) => updated(await resumeWithNewCard(userLicenseId, card, token), t.subscriptions.resumed))
            }
          />
          <KeyWindowButtons intent={{ kind: 'resume', userLicenseId }} disabled={busy} onSettled={windowSettled} />
        </>
      )}
      {panel === 'changeMethod' && (
        <PaymentMethodPanel
          subscription={subscription}
          busy={busy}
          onCancel={() => setPanel('none')}
          onChoose={(billingkeyId) =>
            run('change', async (token) =>
              updated(await changePaymentMethod(userLicenseId, billingkeyId, token), t.subscriptions.changed),
            )
          }
          onAdd={(card) =>
            run('register', async (token) => {
              const key = await addBillingKey(card, token);
              try {
                updated(await changePaymentMethod(userLicenseId, key.billingkeyId, token), t.subscriptions.changed);
              } catch (error) {
                fail('change', error);
              }
            })
          }
          onLoadFailed={(error) => fail('load', error)}
          windowButtons={
            <KeyWindowButtons intent={{ kind: 'changeMethod', userLicenseId }} disabled={busy} onSettled={windowSettled} />
          }
        />
      )}

      <ConfirmDialog
        message={confirming ? format(t.subscriptions.cancelConfirm, { date: paidUntilText }) : null}
        confirmLabel={t.subscriptions.cancel}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run('cancel', async (token) => {
            const next = await cancelAutoRenewal(userLicenseId, token);
            const until = readTime(next.paidUntil);
            updated(next, format(t.subscriptions.cancelled, { date: until ? formatDateTime(until) : paidUntilText }));
          });
        }}
      />
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

/** Card entry (spec section 5 validation, shared with the purchase page). */
function CardPanel({
  submitLabel,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  onSubmit: (card: CardBody) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useT();
  const now = useMemo(() => new Date(), []);
  const form = useForm<CardForm>({
    resolver: zodResolver(cardSchema(now)),
    defaultValues: EMPTY_CARD,
  });
  const submit = form.handleSubmit((card) => onSubmit(toCardBody(card)));
  return (
    <form className="licence-subscription__card" noValidate onSubmit={submit}>
      <CardFields form={form} years={expiryYears(now)} />
      <div className="button-row">
        <Button type="submit" loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t.subscriptions.close}
        </Button>
      </div>
    </form>
  );
}

/** Choose among the registered billing keys, or add a card. */
function PaymentMethodPanel({
  subscription,
  busy,
  onChoose,
  onAdd,
  onCancel,
  onLoadFailed,
  windowButtons,
}: {
  subscription: Subscription;
  busy: boolean;
  onChoose: (billingkeyId: string) => Promise<void>;
  onAdd: (card: CardBody) => Promise<void>;
  onCancel: () => void;
  onLoadFailed: (error: unknown) => void;
  /** Registering a key in a PG window instead of typing a card. */
  windowButtons: ReactNode;
}) {
  const t = useT();
  const legendId = useId();
  const [keys, setKeys] = useState<BillingKey[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const wallet = await getBillingKeys(await getAccessToken(appStore));
        if (live) setKeys(wallet.billingkeys);
      } catch (error) {
        if (!live) return;
        setKeys([]);
        if (!isSilentLoadError(toFeatureError(error))) onLoadFailed(error);
      }
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the wallet is read once, when the panel opens.
  }, []);

  const isCurrent = (key: BillingKey) =>
    key.cardNumber === subscription.cardNumber && (key.cardName ?? '') === (subscription.cardName ?? '');

  return (
    <div className="card licence-subscription__method">
      {keys && keys.length > 0 && (
        <fieldset aria-labelledby={legendId}>
          <legend id={legendId}>{t.subscriptions.chooseKey}</legend>
          {keys.map((key) => (
            <label key={key.billingkeyId} className="button-row">
              <input
                type="radio"
                name="billingkey"
                value={key.billingkeyId}
                checked={chosen === key.billingkeyId}
                onChange={() => setChosen(key.billingkeyId)}
              />
              {paymentMethodText(key, t.subscriptions.noCard)}
              {isCurrent(key) && ` ${t.subscriptions.current}`}
            </label>
          ))}
          <Button loading={busy} disabled={chosen === ''} onClick={() => void onChoose(chosen)}>
            {t.subscriptions.useKey}
          </Button>
        </fieldset>
      )}
      {adding ? (
        <CardPanel submitLabel={t.subscriptions.submitCard} onSubmit={onAdd} onCancel={() => setAdding(false)} />
      ) : (
        <div className="button-row">
          <Button variant="secondary" onClick={() => setAdding(true)}>
            {t.subscriptions.addCard}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            {t.subscriptions.close}
          </Button>
        </div>
      )}
      {windowButtons}
    </div>
  );
}
