/** The one-time purchase: order, pay in the gateway's window, confirm (spec section 4). */
import { loadPortOne } from '../../billing/api';
import { requestPay, savePendingOrder } from '../../billing/portone';
import { featureErrorMessage } from '../../errors/featureError';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { postPurchase, postPurchaseConfirm } from './api';
import { orderEmail, purchaseStep } from './checkout';
import type { Checkout, CheckoutContext } from './checkoutContext';
import { runPurchase, type PurchaseDeps } from './flow';
import { cashReceiptOf } from './schemas';

/** The purchase flow as the browser runs it. */
const browserPurchase: PurchaseDeps = {
  getToken: () => getAccessToken(appStore),
  postPurchase: (body, token) => postPurchase(body, token),
  postConfirm: (body, language, token) => postPurchaseConfirm(body, language, token),
  portOne: loadPortOne,
  requestPay,
  savePending: savePendingOrder,
};

/** Pays the order once; a refused order stays on the page, anything else goes to the confirm or failure page. */
export function useOneTimeCheckout({
  order,
  licence,
  country,
  member,
  redirectUrl,
  paying,
  setPaying,
  showAlert,
  couponCode,
}: CheckoutContext): Checkout {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();

  const submit = order.handleSubmit(async (form) => {
    if (!licence || paying) return;
    setPaying(true);
    const result = await runPurchase(
      {
        request: {
          licenseId: licence.id,
          countryCode: country,
          paymentMethod: form.paymentMethod,
          ...orderEmail(member !== null, form.email),
          ...(couponCode ? { code: couponCode } : {}),
          ...(cashReceiptOf(form) ? { cashReceipt: cashReceiptOf(form) } : {}),
        },
        lang,
        redirectUrl,
      },
      browserPurchase,
    );
    setPaying(false);
    const step = purchaseStep(result, licence.id, paths);
    if (step.kind === 'navigate') {
      navigate(step.to, { state: step.state });
      return;
    }
    showAlert({
      title: t.payments.errorTitles.payment,
      message: featureErrorMessage(t, step.error),
      then: step.goHome ? () => navigate(paths.home()) : undefined,
    });
  });
  return { submit };
}
