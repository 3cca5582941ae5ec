/**
 * An auto-renewing subscription whose billing key a PG window issues (KakaoPay, Naver Pay, or the
 * card window a guest uses): the window registers the key, then the first period is charged to it.
 * A guest's subscription goes to the email of the order.
 */
import { browserKeyWindow } from '../../billing/browserKeyWindow';
import { runKeyWindow, type KeyIntent } from '../../billing/keyWindow';
import { keyWindowDestination } from '../../billing/keyWindowDestination';
import { isKeyRequestType } from '../../billing/paymentMethods';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { orderEmail } from './checkout';
import type { Checkout, CheckoutContext } from './checkoutContext';

export function useWindowSubscriptionCheckout({
  order,
  licence,
  plan,
  country,
  member,
  redirectUrl,
  paying,
  setPaying,
  couponCode,
}: CheckoutContext): Checkout {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const method = order.watch('paymentMethod');

  const submit = order.handleSubmit(async (form) => {
    const requestType = form.paymentMethod;
    if (!licence || !plan || paying || !isKeyRequestType(requestType)) return;
    setPaying(true);
    const token = await getAccessToken(appStore);
    const intent: KeyIntent = {
      kind: 'subscribe',
      licenseId: licence.id,
      countryCode: country,
      ...orderEmail(member !== null, form.email),
      ...(couponCode ? { code: couponCode } : {}),
    };
    const settled = await runKeyWindow(
      { requestType, intent, name: plan.name, buyerEmail: member?.email ?? form.email, redirectUrl, token },
      browserKeyWindow,
    );
    setPaying(false);
    const next = keyWindowDestination(settled, paths);
    navigate(next.to, { state: next.state });
  });

  const methodHint = isKeyRequestType(method)
    ? format(t.purchase.keyWindowHint, { method: t.purchase.methods[method] })
    : undefined;
  return { submit, methodHint };
}
