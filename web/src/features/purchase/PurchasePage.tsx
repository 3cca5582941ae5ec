import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router-dom';
import { discountPercent } from '../../display/discount';
import { formatPrice } from '../../display/currency';
import { durationDisplay, durationText } from '../../display/duration';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { checkSession, getAccessToken } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { featureErrorMessage, isNotFoundGoingHome, toFeatureError } from '../payments/errors';
import { requestPay, savePendingOrder } from '../payments/portone';
import { PAYMENT_METHODS, type PurchasableLicence } from '../payments/types';
import { ActionButton, AlertDialog, FieldError, useAlert } from '../payments/ui';
import { browserKeyWindow, KEY_REQUEST_TYPES, type KeyRequestType } from '../subscriptions/api';
import { keyWindowDestination } from '../subscriptions/destinations';
import { runKeyWindow, type KeyIntent } from '../subscriptions/window';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  getPurchasableLicences,
  loadPortOne,
  postPurchase,
  postPurchaseConfirm,
  postSubscriptionWithNewCard,
} from './api';
import { CardFields } from './CardFields';
import {
  countryForLang,
  deviceCountsOf,
  findLicence,
  isSubscriptionLife,
  livesOf,
  periodKind,
  planOf,
  productsOf,
  resolveSelection,
  selectionOfLicence,
  type Plan,
  type Selection,
} from './catalogue';
import { BILLING_KEY_SUBSCRIPTIONS } from './config';
import { runPurchase } from './flow';
import {
  cardSchema,
  expiryYears,
  PURCHASE_AGREEMENTS,
  purchaseSchema,
  toCardBody,
  type CardForm,
  type PurchaseAgreement,
  type PurchaseForm,
  type PurchaseFormInput,
  type PurchaseValidationKey,
} from './schemas';
import './purchase.css';

/** State a link to the purchase page may carry: the licence to preselect (after a failed payment). */
export interface PurchaseLocationState {
  licenseId?: number;
}

/**
 * Purchase page (spec section 2): product, period and devices with prices in the visitor's
 * currency, payment method, the four agreements, an email for guests; Pay orders, opens the
 * gateway's window and confirms, then goes to the confirm page or the failure page.
 */
export default function PurchasePage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const location = useLocation();
  const preselect = (location.state as PurchaseLocationState | null)?.licenseId;
  const country = countryForLang(lang);
  const user = useAppStore((s) => s.user);
  const sessionChecked = useAppStore((s) => s.sessionChecked);
  const { alert, show, close } = useAlert();

  const [licences, setLicences] = useState<PurchasableLicence[] | null>(null);
  const [wanted, setWanted] = useState<Partial<Selection>>({});
  const [paying, setPaying] = useState(false);
  const [autoRenew, setAutoRenew] = useState(false);
  const now = useMemo(() => new Date(), []);
  const cardForm = useForm<CardForm>({
    resolver: zodResolver(cardSchema(now)),
    defaultValues: { cardNumber: '', expiryMonth: '', expiryYear: '', password: '', birth: '' },
  });

  useEffect(() => {
    if (!sessionChecked) void checkSession(appStore);
  }, [sessionChecked]);

  useEffect(() => {
    void loadPortOne().catch(() => undefined);
  }, []);

  useEffect(() => {
    let live = true;
    getPurchasableLicences()
      .then((items) => {
        if (!live) return;
        setLicences(items);
        if (preselect !== undefined) setWanted(selectionOfLicence(items, preselect) ?? {});
      })
      .catch((error: unknown) => {
        if (!live) return;
        const failure = toFeatureError(error);
        setLicences([]);
        show({
          title: t.payments.errorTitles.purchasable,
          message: featureErrorMessage(t, failure),
          then: isNotFoundGoingHome(failure) || failure.code === -109 ? () => navigate(paths.home()) : undefined,
        });
      });
    return () => {
      live = false;
    };
    // Loaded once per visit: the language only changes how the licences read.
  }, []);

  const selection = useMemo(() => (licences ? resolveSelection(licences, wanted) : undefined), [licences, wanted]);
  const licence = licences && selection ? findLicence(licences, selection) : undefined;
  const plan = licence ? planOf(licence, lang, country) : undefined;

  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors },
  } = useForm<PurchaseFormInput, unknown, PurchaseForm>({
    resolver: zodResolver(purchaseSchema),
    defaultValues: {
      guest: true,
      email: '',
      paymentMethod: 'creditCard',
      agreeTerms: false,
      agreePurchase: false,
      agreePersonal: false,
      agreePrivacy: false,
    },
  });

  useEffect(() => {
    setValue('guest', user === null);
  }, [user, setValue]);

  const agreements = watch([...PURCHASE_AGREEMENTS]);
  const allAgreed = agreements.every(Boolean);
  const agreementError = PURCHASE_AGREEMENTS.map((name) => errors[name]).find(Boolean);
  const setAll = (checked: boolean) => {
    for (const name of PURCHASE_AGREEMENTS) setValue(name, checked, { shouldDirty: true, shouldValidate: false });
  };
  const text = (key: string | undefined) =>
    key ? (t.purchase.validation[key as PurchaseValidationKey] ?? t.purchase.validation.required) : undefined;

  const canSubscribe = BILLING_KEY_SUBSCRIPTIONS && selection !== undefined && isSubscriptionLife(selection.life);
  const subscribing = canSubscribe && autoRenew;
  const method = watch('paymentMethod');
  /** A logged-in subscriber paying by card types it here; everyone else registers in the PG window. */
  const cardEntry = subscribing && user !== null && method === 'creditCard';
  const redirectUrl = `${window.location.origin}${paths.paymentConfirm()}`;

  const chooseAutoRenew = (on: boolean) => {
    setAutoRenew(on);
    if (on && !isKeyRequestType(method)) setValue('paymentMethod', 'creditCard');
  };

  /** Auto-renewal: the card becomes a billing key and pays the first period at once. */
  const subscribe = async (card: CardForm) => {
    if (!licence) return;
    setPaying(true);
    try {
      const token = await getAccessToken(appStore);
      const subscription = await postSubscriptionWithNewCard(
        { licenseId: licence.id, countryCode: country, card: toCardBody(card) },
        token,
      );
      cardForm.reset();
      navigate(paths.paymentConfirm(), { state: { subscription } });
    } catch (error) {
      setPaying(false);
      show({ title: t.payments.errorTitles.payment, message: featureErrorMessage(t, toFeatureError(error)) });
    }
  };

  /** Auto-renewal through a PG window: it issues the billing key, then the first period is charged to it. */
  const subscribeInWindow = async (requestType: KeyRequestType, email: string) => {
    if (!licence || !plan) return;
    setPaying(true);
    const token = await getAccessToken(appStore);
    const intent: KeyIntent = {
      kind: 'subscribe',
      licenseId: licence.id,
      countryCode: country,
      ...(user === null ? { email } : {}),
    };
    const settled = await runKeyWindow(
      { requestType, intent, name: plan.name, buyerEmail: user?.email ?? email, redirectUrl, token },
      browserKeyWindow,
    );
    setPaying(false);
    const next = keyWindowDestination(settled, paths);
    navigate(next.to, { state: next.state });
  };

  const submitOrder = handleSubmit(async (form) => {
    if (!licence || paying) return;
    if (cardEntry) {
      await cardForm.handleSubmit(subscribe)();
      return;
    }
    if (subscribing && isKeyRequestType(form.paymentMethod)) {
      await subscribeInWindow(form.paymentMethod, form.email ?? '');
      return;
    }
    setPaying(true);
    const result = await runPurchase(
      {
        request: {
          licenseId: licence.id,
          countryCode: country,
          paymentMethod: form.paymentMethod,
          ...(user === null ? { email: form.email } : {}),
        },
        lang,
        redirectUrl,
      },
      {
        getToken: () => getAccessToken(appStore),
        postPurchase: (body, token) => postPurchase(body, token),
        postConfirm: (body, language, token) => postPurchaseConfirm(body, language, token),
        portOne: loadPortOne,
        requestPay,
        savePending: savePendingOrder,
      },
    );
    setPaying(false);
    if (result.kind === 'orderFailed') {
      show({
        title: t.payments.errorTitles.payment,
        message: featureErrorMessage(t, result.error),
        then: result.error.code === -109 ? () => navigate(paths.home()) : undefined,
      });
      return;
    }
    if (result.kind === 'confirmed') {
      navigate(paths.paymentConfirm(), { state: { confirmation: result.confirmation } });
      return;
    }
    navigate(paths.paymentFailure(licence.id, { errorCode: result.error.code }), {
      state: { gatewayMessage: result.gatewayMessage },
    });
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    // The card's errors show together with the order's.
    if (cardEntry) void cardForm.trigger();
    await submitOrder(event);
  };

  if (licences === null) {
    return (
      <section className="pay-page">
        <PageMeta title={t.purchase.heading} />
        <h1 className="page__heading">{t.purchase.heading}</h1>
        <PageLoading />
      </section>
    );
  }

  const products = productsOf(licences);
  const lives = selection ? livesOf(licences, selection.productCode) : [];
  const deviceCounts = selection ? deviceCountsOf(licences, selection.productCode, selection.life) : [];
  const priceText = (item: Plan | undefined) => (item ? formatPrice(item.price.requestPrice, item.price.currency, lang) : '');
  const planFor = (wantedSelection: Selection) => {
    const match = findLicence(licences, wantedSelection);
    return match ? planOf(match, lang, country) : undefined;
  };
  const periodName = (life: number) => {
    const kind = periodKind(life);
    return kind === 'days' ? format(t.purchase.periods.days, { days: life }) : t.purchase.periods[kind];
  };
  const agreementRows: { name: PurchaseAgreement; label: string; href: string }[] = [
    { name: 'agreeTerms', label: t.purchase.termsOfUse, href: paths.terms() },
    {
      name: 'agreePurchase',
      label: t.purchase.purchasePolicy,
      href: selection && !isSubscriptionLife(selection.life) ? paths.lifetimePolicy() : paths.subscriptionPolicy(),
    },
    { name: 'agreePersonal', label: t.purchase.personalInfo, href: paths.privacyPolicy() },
    { name: 'agreePrivacy', label: t.purchase.privacyPolicy, href: paths.privacyPolicy() },
  ];

  return (
    <section className="pay-page">
      <PageMeta title={t.purchase.heading} />
      <h1 className="page__heading">{t.purchase.heading}</h1>
      <p className="pay-page__lead">
        {t.purchase.lead} <strong>{t.purchase.guarantee}</strong>
      </p>

      {!selection || !plan ? (
        <p className="pay-status">{t.purchase.unavailable}</p>
      ) : (
        <form className="purchase" noValidate onSubmit={onSubmit}>
          <div className="purchase__choices">
            <fieldset className="pay-section">
              <legend>{t.purchase.productHeading}</legend>
              <div className="purchase__options purchase__options--products">
                {products.map((code) => (
                  <label key={code} className="purchase-option">
                    <input
                      type="radio"
                      name="product"
                      value={code}
                      checked={selection.productCode === code}
                      onChange={() => setWanted({ ...selection, productCode: code })}
                    />
                    <span className="purchase-option__name">{t.purchase.products[code]}</span>
                  </label>
                ))}
              </div>
            </fieldset>

            <fieldset className="pay-section">
              <legend>{t.purchase.periodHeading}</legend>
              <div className="purchase__options">
                {lives.map((life) => {
                  const counts = deviceCountsOf(licences, selection.productCode, life);
                  const devices = counts.includes(selection.maxDevicesCount) ? selection.maxDevicesCount : counts[0];
                  const option =
                    devices === undefined ? undefined : planFor({ productCode: selection.productCode, life, maxDevicesCount: devices });
                  const percent = discountPercent(option?.discount);
                  return (
                    <label key={life} className="purchase-option">
                      <input
                        type="radio"
                        name="life"
                        value={life}
                        checked={selection.life === life}
                        onChange={() => setWanted({ ...selection, life })}
                      />
                      <span className="purchase-option__name">{periodName(life)}</span>
                      <span className="purchase-option__price">{priceText(option)}</span>
                      {percent > 0 && (
                        <span className="purchase-option__badge">{format(t.purchase.discount, { percent })}</span>
                      )}
                    </label>
                  );
                })}
              </div>
            </fieldset>

            <fieldset className="pay-section">
              <legend>{t.purchase.devicesHeading}</legend>
              <div className="purchase__options">
                {deviceCounts.map((count) => (
                  <label key={count} className="purchase-option">
                    <input
                      type="radio"
                      name="maxDevicesCount"
                      value={count}
                      checked={selection.maxDevicesCount === count}
                      onChange={() => setWanted({ ...selection, maxDevicesCount: count })}
                    />
                    <span className="purchase-option__name">{format(t.purchase.devices, { count })}</span>
                    <span className="purchase-option__price">
                      {priceText(planFor({ ...selection, maxDevicesCount: count }))}
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>

            {canSubscribe && (
              <div className="pay-section">
                <label className="pay-check purchase__auto-renew">
                  <input type="checkbox" checked={autoRenew} onChange={(event) => chooseAutoRenew(event.target.checked)} />
                  {t.purchase.autoRenew}
                </label>
                <p className="pay-field__hint">{t.purchase.autoRenewHint}</p>
              </div>
            )}

            <fieldset className="pay-section">
              <legend>{t.purchase.methodHeading}</legend>
              <div className="purchase__options purchase__options--methods">
                {(subscribing ? KEY_REQUEST_TYPES : PAYMENT_METHODS).map((choice) => (
                  <label key={choice} className="purchase-option">
                    <input type="radio" value={choice} {...register('paymentMethod')} />
                    <span className="purchase-option__name">{t.purchase.methods[choice]}</span>
                  </label>
                ))}
              </div>
              <FieldError id="purchase-method-error">{text(errors.paymentMethod?.message)}</FieldError>
              {subscribing && !cardEntry && isKeyRequestType(method) && (
                <p className="pay-field__hint">{format(t.purchase.keyWindowHint, { method: t.purchase.methods[method] })}</p>
              )}
            </fieldset>
            {cardEntry && <CardFields form={cardForm} years={expiryYears(now)} />}
          </div>

          <aside className="purchase__summary pay-card" aria-labelledby="purchase-summary-heading">
            <h2 id="purchase-summary-heading" className="pay-section__heading">
              {t.purchase.summaryHeading}
            </h2>
            <p className="purchase__plan-name">{plan.name}</p>
            {plan.description && <p className="pay-field__hint">{plan.description}</p>}
            <dl className="pay-facts">
              <dt>{t.purchase.period}</dt>
              <dd>{durationText(durationDisplay(selection.life, new Date()), t.purchase.lifetime)}</dd>
              {plan.price.price !== plan.price.requestPrice && (
                <>
                  <dt>{t.purchase.listPrice}</dt>
                  <dd>
                    <s>{formatPrice(plan.price.price, plan.price.currency, lang)}</s>
                    {discountPercent(plan.discount) > 0 && (
                      <> ({format(t.purchase.discount, { percent: discountPercent(plan.discount) })})</>
                    )}
                  </dd>
                </>
              )}
              <dt>{t.purchase.total}</dt>
              <dd className="purchase__total">{priceText(plan)}</dd>
            </dl>

            {user === null ? (
              <div className="pay-field purchase__email">
                <label className="pay-field__label" htmlFor="purchase-email">
                  {t.purchase.emailLabel}
                </label>
                <input
                  id="purchase-email"
                  className="pay-field__input"
                  type="email"
                  autoComplete="email"
                  placeholder={t.purchase.emailPlaceholder}
                  aria-invalid={errors.email ? true : undefined}
                  aria-describedby={`purchase-email-hint${errors.email ? ' purchase-email-error' : ''}`}
                  {...register('email')}
                />
                <p id="purchase-email-hint" className="pay-field__hint">
                  {t.purchase.emailHint}
                </p>
                <FieldError id="purchase-email-error">{text(errors.email?.message)}</FieldError>
              </div>
            ) : (
              <p className="pay-field__hint">{format(t.purchase.buyingAs, { email: user.email })}</p>
            )}

            <fieldset
              className="pay-section purchase__agreements"
              aria-describedby={agreementError ? 'purchase-agreements-error' : undefined}
            >
              <legend>{t.purchase.agreementsHeading}</legend>
              <label className="pay-check purchase__agree-all">
                <input type="checkbox" checked={allAgreed} onChange={(event) => setAll(event.target.checked)} />
                {t.purchase.agreeAll}
              </label>
              {agreementRows.map((row) => (
                <div key={row.name} className="purchase__agreement">
                  <label className="pay-check">
                    <input type="checkbox" {...register(row.name)} />
                    {row.label}
                  </label>
                  <a href={row.href} target="_blank" rel="noopener noreferrer">
                    {t.purchase.view}
                    <span className="visually-hidden"> {t.common.opensInNewWindow}</span>
                  </a>
                </div>
              ))}
              <FieldError id="purchase-agreements-error">{text(agreementError?.message)}</FieldError>
            </fieldset>

            <ActionButton type="submit" loading={paying} className="purchase__pay">
              {format(subscribing ? t.purchase.subscribe : t.purchase.pay, { amount: priceText(plan) })}
            </ActionButton>
          </aside>
        </form>
      )}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

function isKeyRequestType(method: string | undefined): method is KeyRequestType {
  return (KEY_REQUEST_TYPES as readonly string[]).includes(method ?? '');
}
