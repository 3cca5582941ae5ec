import { Link, useParams } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useCurrentLocation, useSearchParams } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { PageMeta } from '../../ui/PageMeta';
import { featureErrorMessage, parseErrorCode } from '../../errors/featureError';
import { StatusLine } from '../../ui/StatusLine';
import type { PurchaseLocationState } from './PurchasePage';
import '../../ui/kit.css';

/** State handed over with a failure: the gateway's own message, if it gave one. */
export interface PaymentFailureState {
  gatewayMessage?: string | null;
  /** The payment could not reach the gateway or the server: a connection failure, not a refusal. */
  network?: boolean;
}

/**
 * /{lang}/payment/{licenseId} (spec section 2): where a failed purchase lands. The message comes
 * from the catalogue for the `errorCode` query (STOP when the buyer closed the window); "try
 * again" goes back to the purchase page with the same licence chosen.
 */
export default function PaymentFailurePage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const { licenseId } = useParams();
  const [params] = useSearchParams();
  const location = useCurrentLocation();
  const state = location.state as PaymentFailureState | null;
  // The gateway's own words are English: shown on the English page only, beside the localised message.
  const gatewayMessage = lang === 'en' ? state?.gatewayMessage : null;
  const code = parseErrorCode(params.get('errorCode')) ?? -10002;
  const message = featureErrorMessage(t, { code, network: state?.network === true });
  const id = Number(licenseId);
  const retryState: PurchaseLocationState = Number.isInteger(id) ? { licenseId: id } : {};

  return (
    <section className="content-page content-page--narrow">
      <PageMeta title={t.payments.failure.heading} />
      <h1 className="page__heading">{t.payments.failure.heading}</h1>
      <StatusLine tone="error">{message}</StatusLine>
      {gatewayMessage && code !== 'STOP' && (
        <p className="hint">{format(t.payments.failure.detail, { message: gatewayMessage })}</p>
      )}
      <div className="actions">
        <Link className="button button--primary" to={paths.purchase()} state={retryState}>
          {t.payments.failure.retry}
        </Link>
        <Link className="button button--secondary" to={paths.home()}>
          {t.payments.failure.goHome}
        </Link>
      </div>
    </section>
  );
}
