/**
 * /{lang}/license/{userLicenseId}/upgrade (spec section 2): choose a life and a device count among the
 * plans the server offers, see each discount (base, the remaining credit) and the total, give the four
 * agreements, and pay: a purchased licence through the gateway's window, a subscription with its current
 * card or a new billing key from a PG window. A purchased licence's upgrade takes a coupon code (the box, or
 * the URL's `code`), priced by the server after the base discount and the credit. Success lands on the payment confirm page; 404 or -109
 * reads "information not found" and goes home.
 */
import { useEffect, useMemo, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useParams } from 'wouter';
import type { ConfirmedPurchase, UpgradeOptions } from '../../api/models';
import { loadPortOne } from '../../billing/api';
import { CardFields } from '../../billing/CardFields';
import { cardSchema, EMPTY_CARD, expiryYears, toCardBody, type CardForm } from '../../billing/cardSchema';
import { CouponBox } from '../../billing/CouponBox';
import { useCoupon } from '../../billing/useCoupon';
import { browserKeyWindow } from '../../billing/browserKeyWindow';
import { runKeyWindow } from '../../billing/keyWindow';
import { keyWindowDestination } from '../../billing/keyWindowDestination';
import { PAYMENT_METHODS, type KeyRequestType, type PaymentMethod } from '../../billing/paymentMethods';
import { payOutcome, requestPay, savePendingOrder } from '../../billing/portone';
import { formatPrice } from '../../display/currency';
import { LIFETIME_DAYS } from '../../api/rules';
import { periodKind } from '../../display/duration';
import { featureErrorMessage, isNotFoundGoingHome, toFeatureError, type FeatureError } from '../../errors/featureError';
import { AGREEMENTS, missingAgreement, type AgreementName } from '../../forms/fields';
import { format } from '../../i18n/catalogues';
import { useCount } from '../../i18n/useCount';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { RequireScope } from '../../session/RequireScope';
import { getAccessToken } from '../../session/session';
import { useBearerLoad } from '../../session/useBearerLoad';
import { appStore, useAppStore } from '../../store';
import { FinalConfirmation } from '../../billing/FinalConfirmation';
import { AgreementsFieldset } from '../../ui/AgreementsFieldset';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { useAlert } from '../../ui/useAlert';
import {
  getUpgradeOptions,
  postSubscriptionUpgrade,
  postSubscriptionUpgradeWithNewCard,
  postUpgrade,
  postUpgradeConfirm,
} from './api';
import { isCouponRefusal } from './coupon';
import {
  devicesForLife,
  payChoiceKey,
  payChoices,
  paymentWays,
  planFor,
  priceLines,
  resolveUpgradeSelection,
  type PayChoice,
  type UpgradeSelection,
} from './choice';
import '../../ui/kit.css';
import './upgrade.css';

/** The window methods an upgrade may be paid with are the server's word (`paymentMethods`, by the currency of
 * the plans; never a virtual account, since an upgrade is paid at once): the page shows those it can show. */
function upgradeMethods(offered: readonly string[]): readonly PaymentMethod[] {
  return PAYMENT_METHODS.filter((method) => offered.includes(method));
}

type AgreementsForm = Record<AgreementName, boolean>;

export default function UpgradePage() {
  return (
    <RequireScope>
      <Upgrade />
    </RequireScope>
  );
}

function Upgrade() {
  const t = useT();
  const count = useCount();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const { userLicenseId = '' } = useParams();
  const member = useAppStore((s) => s.user);
  const { alert, show, close } = useAlert();
  const [wanted, setWanted] = useState<Partial<UpgradeSelection>>({});
  const [chosen, setChosen] = useState<string | null>(null);
  const [paying, setPaying] = useState<string | null>(null);

  const refused = (error: FeatureError) =>
    show({
      title: t.upgrades.errorTitles.upgrade,
      message: isNotFoundGoingHome(error) ? t.payments.notFoundGoingHome : featureErrorMessage(t, error),
      then: isNotFoundGoingHome(error) ? () => navigate(paths.home(), { replace: true }) : undefined,
    });
  const coupon = useCoupon({
    member: true,
    email: () => member?.email ?? '',
    purchaseType: 'upgrade',
    userLicenseId,
  });
  const code = coupon.applied?.code;
  // With a coupon the server prices each plan it discounts; one it refuses now leaves the plain prices.
  const { state } = useBearerLoad<UpgradeOptions>(
    async (token) => {
      if (!code) return getUpgradeOptions(userLicenseId, token);
      try {
        return await getUpgradeOptions(userLicenseId, token, undefined, code);
      } catch (error) {
        if (!isCouponRefusal(toFeatureError(error))) throw error;
        return getUpgradeOptions(userLicenseId, token);
      }
    },
    refused,
    `upgrade-${userLicenseId}-${code ?? ''}`,
  );
  const options = state.status === 'ready' ? state.data : undefined;
  const selection = useMemo(() => (options ? resolveUpgradeSelection(options, wanted) : null), [options, wanted]);
  const plan = options && selection ? planFor(options, selection) : undefined;

  useEffect(() => {
    void loadPortOne().catch(() => undefined);
  }, []);

  const form = useForm<AgreementsForm>({
    defaultValues: { agreeTerms: false, agreePurchase: false, agreePersonal: false, agreePrivacy: false },
  });
  const agreements = form.watch([...AGREEMENTS]);
  const now = useMemo(() => new Date(), []);
  const card = useForm<CardForm>({ resolver: zodResolver(cardSchema(now)), defaultValues: EMPTY_CARD });
  const [agreementError, setAgreementError] = useState<string | undefined>(undefined);

  /** Runs ``pay`` once the four agreements are given. */
  const whenAgreed = (key: string, pay: () => Promise<void>) => async () => {
    if (missingAgreement(form.getValues())) {
      setAgreementError(t.purchase.validation.agreements);
      return;
    }
    setAgreementError(undefined);
    setPaying(key);
    try {
      await pay();
    } catch (error) {
      refused(toFeatureError(error));
    } finally {
      setPaying(null);
    }
  };

  if (state.status !== 'ready' || !options) {
    return (
      <section className="content-page">
        <PageMeta title={t.upgrades.heading} />
        <h1 className="page__heading">{t.upgrades.heading}</h1>
        {state.status === 'loading' && <PageLoading />}
        <AlertDialog alert={alert} onClose={close} />
      </section>
    );
  }

  const lines = plan ? priceLines(plan, lang) : undefined;
  const ways = paymentWays(options.upgradeMethod);
  const amount = lines ? formatPrice(lines.total, lines.currency, lang) : '';
  const choices = payChoices(options.upgradeMethod, upgradeMethods(options.paymentMethods));
  const choice = choices.find((candidate) => payChoiceKey(candidate) === chosen) ?? choices[0];
  const method: PaymentMethod = choice?.kind === 'window' ? choice.method : 'creditCard';

  const payInWindow = whenAgreed('window', async () => {
    if (!plan) return;
    const token = await getAccessToken(appStore);
    const order = await postUpgrade(
      userLicenseId,
      { licenseId: plan.id, paymentMethod: method, requestPrice: plan.requestPrice, code: code ?? undefined },
      token,
    );
    const imp = await loadPortOne();
    savePendingOrder({ merchantUid: order.merchantUid, licenseId: plan.id });
    const outcome = payOutcome(
      await requestPay(imp, {
        pg: order.pg,
        pay_method: order.payMethod,
        merchant_uid: order.merchantUid,
        name: order.name,
        amount: order.amount,
        buyer_email: order.buyerEmail,
        currency: order.currency,
        m_redirect_url: `${window.location.origin}${paths.paymentConfirm()}`,
      }),
    );
    if (outcome.kind === 'cancelled') {
      show({ title: t.upgrades.errorTitles.upgrade, message: t.upgrades.windowClosed });
      return;
    }
    if (outcome.kind === 'failed') {
      show({ title: t.upgrades.errorTitles.upgrade, message: outcome.message ?? featureErrorMessage(t, { code: -300 }) });
      return;
    }
    const upgraded = await postUpgradeConfirm({ impUid: outcome.impUid, merchantUid: outcome.merchantUid }, token);
    const confirmation: ConfirmedPurchase = {
      userLicenseId: upgraded.userLicenseId,
      licenseKey: upgraded.licenseKey,
      state: upgraded.state,
      email: member?.email ?? order.buyerEmail,
      accountCreated: false,
    };
    const upgrade = {
      merchantUid: upgraded.merchantUid,
      licenseName: upgraded.licenseName ?? plan.name,
      amount: upgraded.amount ?? order.amount,
      currency: upgraded.currency ?? order.currency,
      credit: upgraded.credit,
    };
    navigate(paths.paymentConfirm(), { state: { confirmation, upgraded: true, upgrade } });
  });

  const payWithCurrentCard = whenAgreed('currentCard', async () => {
    if (!plan) return;
    const token = await getAccessToken(appStore);
    const subscription = await postSubscriptionUpgrade(
      userLicenseId,
      { licenseId: plan.id, requestPrice: plan.requestPrice },
      token,
    );
    navigate(paths.paymentConfirm(), { state: { subscription, upgraded: true } });
  });

  const payWithTypedCard = async () => {
    const typed = await new Promise<CardForm | null>((resolve) => {
      void card.handleSubmit(resolve, () => resolve(null))();
    });
    if (!typed) return;
    await whenAgreed('typedCard', async () => {
      if (!plan) return;
      const token = await getAccessToken(appStore);
      const subscription = await postSubscriptionUpgradeWithNewCard(
        userLicenseId,
        { licenseId: plan.id, requestPrice: plan.requestPrice, card: toCardBody(typed) },
        token,
      );
      card.reset();
      navigate(paths.paymentConfirm(), { state: { subscription, upgraded: true } });
    })();
  };

  const payWithNewKey = (requestType: KeyRequestType) =>
    whenAgreed(requestType, async () => {
      if (!plan) return;
      const token = await getAccessToken(appStore);
      const settled = await runKeyWindow(
        {
          requestType,
          intent: { kind: 'upgrade', userLicenseId, licenseId: plan.id },
          name: plan.name,
          buyerEmail: member?.email ?? '',
          redirectUrl: `${window.location.origin}${paths.paymentConfirm()}`,
          token,
        },
        browserKeyWindow,
      );
      if (settled.kind === 'failed') {
        const closed = settled.error.code === 'STOP';
        show({
          title: t.upgrades.errorTitles.upgrade,
          message: closed ? t.upgrades.windowClosed : settled.gatewayMessage ?? featureErrorMessage(t, settled.error),
        });
        return;
      }
      const next = keyWindowDestination(settled, paths);
      navigate(next.to, { state: next.state });
    });

  const agreementRows = [
    { name: 'agreeTerms' as const, label: t.purchase.termsOfUse, href: paths.terms() },
    {
      name: 'agreePurchase' as const,
      label: t.purchase.purchasePolicy,
      href:
        options.upgradeMethod === 'subscribe' && plan?.life !== LIFETIME_DAYS
          ? paths.subscriptionPolicy()
          : paths.lifetimePolicy(),
    },
    { name: 'agreePersonal' as const, label: t.purchase.personalInfo, href: paths.privacyPolicy() },
    { name: 'agreePrivacy' as const, label: t.purchase.privacyPolicy, href: paths.privacyPolicy() },
  ];

  const choiceLabel = (candidate: PayChoice) => {
    if (candidate.kind === 'window') return t.purchase.methods[candidate.method];
    if (candidate.kind === 'keyWindow') {
      return format(t.upgrades.payChoices.keyWindow, { method: t.purchase.methods[candidate.requestType] });
    }
    return t.upgrades.payChoices[candidate.kind];
  };
  /** The one pay button: what it says and does follows the chosen way to pay. */
  const payButton = (() => {
    switch (choice?.kind) {
      case 'window':
        return { text: format(t.upgrades.payWindow, { amount }), pay: payInWindow };
      case 'currentCard':
        return { text: format(t.upgrades.payCurrentCard, { amount }), pay: payWithCurrentCard };
      case 'typedCard':
        return { text: format(t.upgrades.payTypedCard, { amount }), pay: payWithTypedCard };
      case 'keyWindow':
        return {
          text: format(t.upgrades.payKeyWindow, { method: t.purchase.methods[choice.requestType] }),
          pay: payWithNewKey(choice.requestType),
        };
      default:
        return undefined;
    }
  })();
  /** What a period costs with the devices chosen (or its fewest): the price its option shows. */
  const periodPrice = (life: number) => {
    const devices = devicesForLife(options, life);
    const wantedDevices = selection && devices.includes(selection.maxDevicesCount) ? selection.maxDevicesCount : devices[0];
    const periodPlan = wantedDevices === undefined ? undefined : planFor(options, { life, maxDevicesCount: wantedDevices });
    return periodPlan ? formatPrice(periodPlan.requestPrice, periodPlan.currency, lang) : undefined;
  };
  const periodName = (life: number) => {
    const kind = periodKind(life);
    return kind === 'days' ? count(t.purchase.periods.days, life) : t.purchase.periods[kind];
  };

  return (
    <section className="content-page">
      <PageMeta title={t.upgrades.heading} />
      <h1 className="page__heading">{t.upgrades.heading}</h1>
      <p className="content-page__lead" role="note" aria-label={t.upgrades.errorTitles.notice}>
        {t.upgrades.notice}
      </p>
      {selection && plan && lines && (
        <div className="upgrade">
          <div className="upgrade__choices">
            <fieldset className="card">
              <legend>{t.upgrades.life}</legend>
              <div className="upgrade__options">
                {options.upgradableOptions.life
                  .filter((life) => devicesForLife(options, life).length > 0)
                  .map((life) => (
                    <label key={life} className="purchase-option" data-testid={`upgrade-life-${life}`}>
                      <input
                        type="radio"
                        name="upgrade-life"
                        checked={selection.life === life}
                        onChange={() => setWanted({ ...wanted, life })}
                      />
                      <span className="purchase-option__name">{periodName(life)}</span>
                      <span className="purchase-option__price">{periodPrice(life)}</span>
                    </label>
                  ))}
              </div>
            </fieldset>
            <fieldset className="card">
              <legend>{t.upgrades.devices}</legend>
              <div className="upgrade__options">
                {devicesForLife(options, selection.life).map((devices) => {
                  const devicesPlan = planFor(options, { life: selection.life, maxDevicesCount: devices });
                  return (
                    <label key={devices} className="purchase-option">
                      <input
                        type="radio"
                        name="upgrade-devices"
                        checked={selection.maxDevicesCount === devices}
                        onChange={() => setWanted({ ...wanted, life: selection.life, maxDevicesCount: devices })}
                      />
                      <span className="purchase-option__name">{count(t.upgrades.devicesOption, devices)}</span>
                      {devicesPlan && (
                        <span className="purchase-option__price">
                          {formatPrice(devicesPlan.requestPrice, devicesPlan.currency, lang)}
                        </span>
                      )}
                    </label>
                  );
                })}
              </div>
            </fieldset>
            {choices.length > 0 && (
              <fieldset className="card">
                <legend>{t.upgrades.method}</legend>
                <div className="upgrade__options">
                  {choices.map((candidate) => (
                    <label key={payChoiceKey(candidate)} className="purchase-option">
                      <input
                        type="radio"
                        name="upgrade-method"
                        checked={choice !== undefined && payChoiceKey(choice) === payChoiceKey(candidate)}
                        onChange={() => setChosen(payChoiceKey(candidate))}
                      />
                      <span className="purchase-option__name">{choiceLabel(candidate)}</span>
                    </label>
                  ))}
                </div>
                {options.upgradeMethod === 'subscribe' && choice?.kind !== 'currentCard' && (
                  <p className="hint">{t.upgrades.newCardHint}</p>
                )}
                {choice?.kind === 'typedCard' && (
                  <div className="upgrade__typed-card" role="group" aria-label={t.upgrades.typedCard}>
                    <CardFields form={card} years={expiryYears(now)} />
                  </div>
                )}
              </fieldset>
            )}
          </div>

          <aside className="upgrade__summary card" aria-labelledby="upgrade-summary-heading">
            <h2 id="upgrade-summary-heading" className="content-section__heading">
              {plan.name}
            </h2>
            <dl className="facts">
              <dt>{t.upgrades.listPrice}</dt>
              <dd>{formatPrice(lines.price, lines.currency, lang)}</dd>
              {lines.discountText && (
                <>
                  <dt>{t.upgrades.discount}</dt>
                  <dd data-testid="upgrade-discount">{lines.discountText}</dd>
                </>
              )}
              {lines.remaining !== 0 && (
                <>
                  <dt>{t.upgrades.remainingDiscount}</dt>
                  <dd data-testid="upgrade-remaining">-{formatPrice(lines.remaining, lines.currency, lang)}</dd>
                </>
              )}
              <dt>{t.upgrades.total}</dt>
              <dd className="upgrade__total" data-testid="upgrade-total">
                {amount}
              </dd>
            </dl>
            {options.upgradeMethod === 'subscribe' && (
              <p className="hint" data-testid="upgrade-cycle-hint">
                {plan.life === LIFETIME_DAYS ? t.upgrades.lifetimeEndsSubscriptionHint : t.upgrades.renewsHint}
              </p>
            )}
            {ways.includes('window') && (
              <CouponBox
                applied={coupon.applied}
                error={coupon.error}
                busy={coupon.busy}
                appliesToPlan={Number(plan.coupon) > 0}
                onApply={coupon.apply}
                onCancel={coupon.cancel}
              />
            )}
            <AgreementsFieldset
              className="purchase__agreements"
              legend={t.purchase.agreementsHeading}
              agreeAllLabel={t.purchase.agreeAll}
              allChecked={agreements.every(Boolean)}
              onAllChange={(checked) => {
                for (const name of AGREEMENTS) form.setValue(name, checked);
              }}
              rows={agreementRows.map((row) => ({ label: row.label, href: row.href, input: form.register(row.name) }))}
              viewLabel={t.purchase.view}
              error={agreementError}
              errorId="upgrade-agreements-error"
            />
            {choice && (
              <FinalConfirmation
                order={{
                  item: `${plan.name} (${periodName(plan.life)}, ${count(t.upgrades.devicesOption, plan.maxDevicesCount)})`,
                  price: { amount: lines.total, currency: lines.currency },
                  method: choiceLabel(choice),
                  renewal:
                    options.upgradeMethod === 'subscribe' && plan.life !== LIFETIME_DAYS
                      ? { amount: plan.discountedPrice, currency: plan.currency, life: plan.life }
                      : undefined,
                  policyHref: agreementRows[1]?.href ?? paths.subscriptionPolicy(),
                }}
              />
            )}
            {payButton && (
              <Button
                className="upgrade__pay"
                loading={paying !== null}
                disabled={paying !== null}
                onClick={() => void payButton.pay()}
              >
                {payButton.text}
              </Button>
            )}
          </aside>
        </div>
      )}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
