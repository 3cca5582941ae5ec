import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { loadPortOne } from '../../billing/api';
import { usePaymentSettings } from '../../billing/usePaymentSettings';
import { CouponBox } from '../../billing/CouponBox';
import { useCoupon } from '../../billing/useCoupon';
import { formatPrice } from '../../display/currency';
import { AGREEMENTS, type AgreementName } from '../../forms/fields';
import { useCurrentLocation } from '../../routing/location';
import { fieldErrorText } from '../../ui/FieldError';
import { format } from '../../i18n/catalogues';
import { useCount } from '../../i18n/useCount';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { checkSession } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { AgreementsFieldset } from '../../ui/AgreementsFieldset';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { PageLoading } from '../../ui/PageLoading';
import { useAlert } from '../../ui/useAlert';
import { FinalConfirmation } from '../../billing/FinalConfirmation';
import { BuyerEmail } from './BuyerEmail';
import {
  findLicence,
  isSubscriptionLife,
  periodKind,
  planOf,
  resolveSelection,
  selectionOfLicence,
  type Selection,
} from './catalogue';
import { canAutoRenew, checkoutKind, methodWhenAutoRenewing, type CheckoutKind } from './checkout';
import type { Checkout, CheckoutContext } from './checkoutContext';
import { OrderSummary } from './OrderSummary';
import { PaymentMethodChoice } from './PaymentMethodChoice';
import { PlanChoices } from './PlanChoices';
import { CashReceiptChoice } from './CashReceiptChoice';
import { CASH_RECEIPT_METHODS, purchaseSchema, type PurchaseForm, type PurchaseFormInput } from './schemas';
import { useCardSubscriptionCheckout } from './useCardSubscriptionCheckout';
import { useOneTimeCheckout } from './useOneTimeCheckout';
import { useCouponPrices } from './useCouponPrices';
import { useOnSaleLicences } from './useOnSaleLicences';
import { useWindowSubscriptionCheckout } from './useWindowSubscriptionCheckout';
import '../../ui/kit.css';
import './purchase.css';
import type { PurchaseLocationState } from './PurchasePage';

/**
 * The purchase page's order (spec section 2): product, period and devices with prices in the visitor's
 * currency, payment method, the four agreements, an email for guests. Pay hands the order to the
 * flow the choices call for (see checkout.ts): a one-time purchase in the gateway's window, or an
 * auto-renewing subscription with a typed card or a billing-key window. The page's heading is
 * PurchasePage's, painted before this module (with react-hook-form and zod) has loaded.
 */
export default function PurchaseOrder() {
  const t = useT();
  const count = useCount();
  const lang = useLang();
  const paths = usePaths();
  const preselect = (useCurrentLocation().state as PurchaseLocationState | null)?.licenseId;
  // The country (so the currency) is the server's word, fetched once at start: a language switch keeps it.
  const settings = usePaymentSettings();
  const country = settings?.countryCode ?? '';
  const member = useAppStore((s) => s.user);
  const sessionChecked = useAppStore((s) => s.sessionChecked);
  const { alert, show, close } = useAlert();
  const [wanted, setWanted] = useState<Partial<Selection>>({});
  const [paying, setPaying] = useState(false);
  const [autoRenew, setAutoRenew] = useState(false);

  const licences = useOnSaleLicences(show, (items) => {
    if (preselect !== undefined) setWanted(selectionOfLicence(items, preselect) ?? {});
  });
  const selection = useMemo(() => (licences ? resolveSelection(licences, wanted) : undefined), [licences, wanted]);
  const listedLicence = licences && selection ? findLicence(licences, selection) : undefined;

  useEffect(() => {
    if (!sessionChecked) void checkSession(appStore);
  }, [sessionChecked]);

  useEffect(() => {
    void loadPortOne().catch(() => undefined);
  }, []);

  const order = useForm<PurchaseFormInput, unknown, PurchaseForm>({
    resolver: zodResolver(purchaseSchema),
    defaultValues: {
      guest: true,
      email: '',
      paymentMethod: 'creditCard',
      agreeTerms: false,
      agreePurchase: false,
      agreePersonal: false,
      agreePrivacy: false,
      cashReceiptType: 'none',
      cashReceiptNumber: '',
    },
  });
  const {
    register,
    setValue,
    watch,
    formState: { errors },
  } = order;
  useEffect(() => {
    setValue('guest', member === null);
  }, [member, setValue]);

  const coupon = useCoupon({ member: member !== null, email: () => order.getValues('email') ?? '' });
  const couponPrices = useCouponPrices(coupon.applied?.code);
  // With a coupon applied, the chosen licence is priced by the server's quote for that code.
  const licence = (listedLicence && couponPrices?.find((item) => item.id === listedLicence.id)) || listedLicence;
  const plan = licence && settings ? planOf(licence, lang, country) : undefined;

  const canSubscribe = canAutoRenew(selection?.life);
  const subscribing = canSubscribe && autoRenew;
  const kind: CheckoutKind = checkoutKind({ subscribing, member: member !== null, method: watch('paymentMethod') });
  const context: CheckoutContext = {
    order,
    licence,
    plan,
    country,
    member,
    redirectUrl: `${window.location.origin}${paths.paymentConfirm()}`,
    paying,
    setPaying,
    showAlert: show,
    couponCode: coupon.applied && plan && plan.coupon > 0 ? coupon.applied.code : undefined,
  };
  // Every flow's hook runs on every render (rules of hooks); the choices say which one pays.
  const flows: Record<CheckoutKind, Checkout> = {
    oneTime: useOneTimeCheckout(context),
    cardSubscription: useCardSubscriptionCheckout(context),
    windowSubscription: useWindowSubscriptionCheckout(context),
  };
  const checkout = flows[kind];

  const agreements = watch([...AGREEMENTS]);
  const agreementError = AGREEMENTS.map((name) => errors[name]).find(Boolean);
  const agreementRows: { name: AgreementName; label: string; href: string }[] = [
    { name: 'agreeTerms', label: t.purchase.termsOfUse, href: paths.terms() },
    {
      name: 'agreePurchase',
      label: t.purchase.purchasePolicy,
      href: selection && !isSubscriptionLife(selection.life) ? paths.lifetimePolicy() : paths.subscriptionPolicy(),
    },
    { name: 'agreePersonal', label: t.purchase.personalInfo, href: paths.privacyPolicy() },
    { name: 'agreePrivacy', label: t.purchase.privacyPolicy, href: paths.privacyPolicy() },
  ];

  const chooseAutoRenew = (on: boolean) => {
    setAutoRenew(on);
    if (on) setValue('paymentMethod', methodWhenAutoRenewing(watch('paymentMethod')));
  };

  if (licences === null || settings === null) return <PageLoading />;

  const method = watch('paymentMethod');
  // A subscription renews at its own price: the listed one, without this order's coupon (docs/subscriptions.md).
  const renewalPlan = subscribing && listedLicence ? planOf(listedLicence, lang, country) : undefined;
  const periodName = (life: number) => {
    const kind = periodKind(life);
    return kind === 'days' ? count(t.purchase.periods.days, life) : t.purchase.periods[kind];
  };

  return (
    <>
      {!selection || !plan ? (
        <p className="status-line">{t.purchase.unavailable}</p>
      ) : (
        <form className="purchase" noValidate onSubmit={(event) => void checkout.submit(event)}>
          <div className="purchase__choices">
            <PlanChoices licences={licences} selection={selection} country={country} onChange={setWanted} />
            <PaymentMethodChoice
              canSubscribe={canSubscribe}
              autoRenew={autoRenew}
              onAutoRenew={chooseAutoRenew}
              method={register('paymentMethod')}
              error={errors.paymentMethod}
              hint={checkout.methodHint}
              offered={settings}
            />
            {CASH_RECEIPT_METHODS.includes(watch('paymentMethod')) && !subscribing && (
              <CashReceiptChoice
                type={register('cashReceiptType')}
                number={register('cashReceiptNumber')}
                chosen={watch('cashReceiptType') ?? 'none'}
                error={errors.cashReceiptNumber}
              />
            )}
            {checkout.fields}
          </div>

          <OrderSummary plan={plan} life={selection.life}>
            <BuyerEmail memberEmail={member?.email ?? null} input={register('email')} error={errors.email} />
            <CouponBox
              applied={coupon.applied}
              error={coupon.error}
              busy={coupon.busy}
              appliesToPlan={plan.coupon > 0}
              onApply={coupon.apply}
              onCancel={coupon.cancel}
            />
            <AgreementsFieldset
              className="purchase__agreements"
              legend={t.purchase.agreementsHeading}
              agreeAllLabel={t.purchase.agreeAll}
              allChecked={agreements.every(Boolean)}
              onAllChange={(checked) => {
                for (const name of AGREEMENTS) setValue(name, checked, { shouldDirty: true, shouldValidate: false });
              }}
              rows={agreementRows.map((row) => ({ label: row.label, href: row.href, input: register(row.name) }))}
              viewLabel={t.purchase.view}
              error={fieldErrorText(agreementError, t.purchase.validation)}
              errorId="purchase-agreements-error"
            />
            <FinalConfirmation
              order={{
                item: `${plan.name} (${periodName(selection.life)}, ${count(t.purchase.devices, selection.maxDevicesCount)})`,
                price: { amount: plan.price.requestPrice, currency: plan.price.currency },
                method: method ? t.purchase.methods[method] : '',
                byDeposit: method === 'virtualAccount' && !subscribing,
                renewal: renewalPlan && {
                  amount: renewalPlan.price.requestPrice,
                  currency: renewalPlan.price.currency,
                  life: selection.life,
                },
                policyHref: agreementRows[1]?.href ?? paths.subscriptionPolicy(),
              }}
            />
            <Button type="submit" loading={paying} className="purchase__pay">
              {format(subscribing ? t.purchase.subscribe : t.purchase.pay, {
                amount: formatPrice(plan.price.requestPrice, plan.price.currency, lang),
              })}
            </Button>
          </OrderSummary>
        </form>
      )}
      <AlertDialog alert={alert} onClose={close} />
    </>
  );
}
