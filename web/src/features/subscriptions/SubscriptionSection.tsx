/**
 * The subscription part of the licence detail page (spec sections 4-5): next payment (or the retry
 * of a failed one, or the end of the paid period), price, licence, payment method and auto-renewal.
 * The buttons are exactly the actions the server allows now (allowedActions): cancel auto-renewal,
 * pay a past-due period now, resume or re-subscribe with the previous or a new card, change the
 * payment method (past due, the new card pays at once). Licences without a subscription (404) show
 * nothing.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { formatPrice } from '../../display/currency';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useCurrentLocation } from '../../routing/location';
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
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import {
  addBillingKey,
  agreeToPriceRise,
  declinePriceRise,
  getBillingKeys,
  getSubscription,
  payNow,
  resumeWithNewCard,
  resumeWithPreviousCard,
} from './api';
import { paymentMethodText, subscriptionDate } from './display';
import { ExitDialog } from './ExitDialog';
import { PriceRiseNotice } from './PriceRiseNotice';
import { KeyWindowButtons } from './KeyWindowButtons';
import { useReveal } from '../../ui/useReveal';
import '../../ui/kit.css';

type Panel = 'none' | 'resumeNewCard' | 'changeMethod';
type ErrorTitle = 'load' | 'resume' | 'cancel' | 'register' | 'change' | 'pay';

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
  const returned = useCurrentLocation().state as SubscriptionReturnState | null;
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

  // A mailed link opens the licence page with what it is for (domain/links.py): the exit dialog (a renewal
  // reminder's), the card change that pays a past-due period at once (a failed renewal's). Once, when it loads.
  const intent = new URLSearchParams(useCurrentLocation().search).get('subscription');
  const [intentDone, setIntentDone] = useState(false);
  useEffect(() => {
    if (!subscription || intentDone) return;
    setIntentDone(true);
    if (intent === 'stop' && subscription.allowedActions.includes('cancelAutoRenewal')) setConfirming(true);
    if (intent === 'pay' && subscription.allowedActions.includes('changePaymentMethod')) setPanel('changeMethod');
  }, [subscription, intent, intentDone]);

  // A closed card form (or a return from a PG window) leaves the outcome off screen: the section's heading and
  // notice come into view once both are there.
  const noticeHeading = useReveal<HTMLHeadingElement>(subscription ? notice : null);

  const updated = (next: Subscription, message: string) => {
    setSubscription(next);
    setPanel('none');
    setNotice(message);
    onChanged?.();
  };

  // Past due, a new card pays the due period as it becomes the card.
  const pastDue = subscription?.allowedActions.includes('payNow') ?? false;
  const changedMessage = pastDue ? t.subscriptions.paid : t.subscriptions.changed;

  const windowSettled = (settled: KeyWindowSettlement) => {
    if (settled.kind === 'updated') {
      updated(settled.subscription, settled.intent.kind === 'resume' ? t.subscriptions.resumed : changedMessage);
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

  /** The price-rise notice's buttons: agree, or decline and stop auto-renewal (docs/catalogue.md). */
  const answerPriceRise = (agree: boolean) =>
    void (async () => {
      setBusy(true);
      setNotice(null);
      try {
        const token = await getAccessToken(appStore);
        const next = agree ? await agreeToPriceRise(userLicenseId, token) : await declinePriceRise(userLicenseId, token);
        const when = readTime(agree ? next.priceRise?.changesAt : next.paidUntil);
        const texts = t.subscriptions.priceRise;
        updated(next, format(agree ? texts.agreedNotice : texts.declinedNotice, { date: when ? formatDateTime(when) : '-' }));
      } catch (error) {
        show({ title: t.subscriptions.priceRise.errorTitle, message: featureErrorMessage(t, toFeatureError(error)) });
      } finally {
        setBusy(false);
      }
    })();

  if (!subscription) return <AlertDialog alert={alert} onClose={close} />;

  const allowed = new Set(subscription.allowedActions);
  const shown = subscriptionDate(subscription);
  const shownAt = readTime(shown.at);
  const paidUntil = readTime(subscription.paidUntil);
  const paidUntilText = paidUntil ? formatDateTime(paidUntil) : t.subscriptions.noCard;
  const renewals = allowed.has('resume') ? 'resume' : allowed.has('resubscribe') ? 'resubscribe' : null;

  return (
    <section className="content-section licence-subscription" aria-labelledby={headingId}>
      <h2 id={headingId} className="content-section__heading" ref={noticeHeading}>
        {t.subscriptions.heading}
      </h2>
      <StatusLine>{notice}</StatusLine>
      <PriceRiseNotice
        subscription={subscription}
        busy={busy}
        onAgree={() => answerPriceRise(true)}
        onStop={() => answerPriceRise(false)}
      />
      <div className="card">
        <dl className="facts">
          <dt>{t.subscriptions.licenseName}</dt>
          <dd>{subscription.licenseName}</dd>
          {shownAt && (
            <>
              <dt>{t.subscriptions[shown.kind]}</dt>
              <dd data-testid={DATE_TEST_IDS[shown.kind]}>{formatDateTime(shownAt)}</dd>
            </>
          )}
          {/* While it renews, what the next renewal charges (the one price the reminder mail states and the
              renewal takes) stands for the price; otherwise the price it was charged at. */}
          {subscription.nextRenewalPrice == null && (
            <>
              <dt>{t.subscriptions.price}</dt>
              <dd>{formatPrice(subscription.price, subscription.currency, lang)}</dd>
            </>
          )}
          {subscription.nextRenewalPrice != null && (
            <>
              <dt>{t.subscriptions.nextPaymentAmount}</dt>
              <dd data-testid="subscription-next-renewal-price">
                {formatPrice(subscription.nextRenewalPrice, subscription.currency, lang)}
              </dd>
            </>
          )}
          <dt>{t.subscriptions.paymentMethod}</dt>
          <dd data-testid="subscription-card">{paymentMethodText(subscription, t.subscriptions.noCard)}</dd>
          <dt>{t.subscriptions.autoRenewal}</dt>
          <dd data-testid="subscription-auto-renewal">{t.subscriptions.statuses[statusKey(subscription.status)]}</dd>
        </dl>
        {pastDue && <p className="hint">{t.subscriptions.pastDueHint}</p>}
        <div className="button-row">
          {allowed.has('payNow') && (
            <Button
              loading={busy}
              onClick={() => void run('pay', async (token) => updated(await payNow(userLicenseId, token), t.subscriptions.paid))}
            >
              {t.subscriptions.payNow}
            </Button>
          )}
          {renewals && (
            <>
              <Button
                loading={busy}
                onClick={() =>
                  void run('resume', async (token) =>
                    updated(await resumeWithPreviousCard(userLicenseId, token), t.subscriptions.resumed),
                  )
                }
              >
                {renewals === 'resume' ? t.subscriptions.resumePrevious : t.subscriptions.resubscribePrevious}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => setPanel(panel === 'resumeNewCard' ? 'none' : 'resumeNewCard')}>
                {renewals === 'resume' ? t.subscriptions.resumeNewCard : t.subscriptions.resubscribeNewCard}
              </Button>
            </>
          )}
          {allowed.has('changePaymentMethod') && (
            <Button variant="secondary" disabled={busy} onClick={() => setPanel(panel === 'changeMethod' ? 'none' : 'changeMethod')}>
              {t.subscriptions.changeMethod}
            </Button>
          )}
          {allowed.has('cancelAutoRenewal') && (
            <Button variant="secondary" disabled={busy} onClick={() => setConfirming(true)}>
              {t.subscriptions.cancel}
            </Button>
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
            run(pastDue ? 'pay' : 'change', async (token) =>
              updated(await changePaymentMethod(userLicenseId, billingkeyId, token), changedMessage),
            )
          }
          onAdd={(card) =>
            run('register', async (token) => {
              const key = await addBillingKey(card, token);
              try {
                updated(await changePaymentMethod(userLicenseId, key.billingkeyId, token), changedMessage);
              } catch (error) {
                fail(pastDue ? 'pay' : 'change', error);
              }
            })
          }
          onLoadFailed={(error) => fail('load', error)}
          windowButtons={
            <KeyWindowButtons intent={{ kind: 'changeMethod', userLicenseId }} disabled={busy} onSettled={windowSettled} />
          }
        />
      )}

      {confirming && (
        <ExitDialog
          userLicenseId={userLicenseId}
          message={pastDue ? t.subscriptions.cancelPastDueConfirm : format(t.subscriptions.cancelConfirm, { date: paidUntilText })}
          onClose={() => setConfirming(false)}
          onFailed={(error) => {
            setConfirming(false);
            fail('cancel', error);
          }}
          onDone={(outcome) => {
            setConfirming(false);
            const next = outcome.subscription;
            if (outcome.kind === 'stayed') {
              updated(next, outcome.message);
              return;
            }
            const until = readTime(next.paidUntil);
            updated(
              next,
              next.status === 'ended'
                ? t.subscriptions.cancelledNow
                : format(t.subscriptions.cancelled, { date: until ? formatDateTime(until) : paidUntilText }),
            );
          }}
        />
      )}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

const DATE_TEST_IDS = {
  nextPayment: 'subscription-next-payment',
  retryAt: 'subscription-retry-at',
  paidUntil: 'subscription-paid-until',
} as const;

type StatusKey = 'active' | 'pastDue' | 'cancelled' | 'ended';

/** The catalogue key of a subscription status the server reports. */
function statusKey(status: string): StatusKey {
  if (status === 'past_due') return 'pastDue';
  if (status === 'cancelled' || status === 'ended') return status;
  return 'active';
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
