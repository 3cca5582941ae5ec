/** The 30-day money-back guarantee on the licence page (docs/money-back.md): the offer, the dialog that asks, the
 * request's state. */
import { useState, type ReactNode } from 'react';
import type { UserLicenceDetail } from '../../api/models';
import { formatPrice } from '../../display/currency';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { featureErrorMessage, toFeatureError } from '../../errors/featureError';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { StatusLine } from '../../ui/StatusLine';
import { askMoneyBack } from './api';

/** A money-back request as the page shows it: its state and, when refused, why. */
export type MoneyBackState = { state: string; refused?: string | null };

/** The 30-day money-back guarantee for the licence as it was bought (docs/money-back.md): offered only where the
 * server says it may be given (`licence.moneyBack`), asked through a dialog that says how much goes back, to which
 * card, and that the licence stops on every device; then the request's state, whether asked now or before. */
export function MoneyBack({
  licence,
  known,
  onAnswered,
}: {
  licence: UserLicenceDetail;
  known?: MoneyBackState;
  onAnswered: () => void;
}) {
  const t = useT();
  const lang = useLang();
  const [asked, setAnswer] = useState<MoneyBackState | null>(null);
  const [confirming, setConfirming] = useState(false);
  const answer = asked ?? known ?? null;
  const [failed, setFailed] = useState<string | null>(null);
  const texts = t.licences.moneyBack;
  const offer = licence.moneyBack;
  if (!answer && !offer) return null;

  const ask = async (merchantUid: string) => {
    setConfirming(false);
    try {
      setAnswer(await askMoneyBack(merchantUid, await getAccessToken(appStore)));
      onAnswered();
    } catch (error) {
      setFailed(featureErrorMessage(t, toFeatureError(error)));
    }
  };

  let body: ReactNode;
  if (answer) {
    const reasons: Record<string, string> = texts.reasons;
    const code = answer.refused ?? '';
    // A request refused under an earlier policy has a code the page explains; anything else is support's words.
    body = (
      <StatusLine>
        {answer.state === 'refunded'
          ? texts.refunded
          : answer.state === 'refunding'
            ? texts.refunding
            : answer.state === 'waiting'
              ? texts.waiting
              : code in reasons
                ? format(texts.refused, { reason: reasons[code] ?? code })
                : format(texts.declined, { reason: code })}
      </StatusLine>
    );
  } else if (offer) {
    const fields = {
      amount: formatPrice(offer.amount, offer.currency, lang),
      method: offer.cardNumber
        ? format(texts.card, { card: [offer.cardName, offer.cardNumber].filter(Boolean).join(' ') })
        : texts.original,
      deadline: formatDateTime(readTime(offer.deadline)!),
    };
    body = (
      <>
        <p data-testid="money-back-offer">{format(offer.atOnce ? texts.offer : texts.offerSupport, fields)}</p>
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          {texts.ask}
        </Button>
        {failed && <p role="alert">{failed}</p>}
        <ConfirmDialog
          title={texts.confirmTitle}
          message={confirming ? format(texts.confirm, fields) : null}
          confirmLabel={texts.confirmButton}
          cancelLabel={texts.keep}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void ask(offer.merchantUid)}
        >
          <dl className="facts" data-testid="money-back-summary">
            <div>
              <dt>{texts.amountLabel}</dt>
              <dd>{fields.amount}</dd>
            </div>
            <div>
              <dt>{texts.methodLabel}</dt>
              <dd>{fields.method}</dd>
            </div>
            <div>
              <dt>{texts.devicesLabel}</dt>
              <dd>{format(texts.devicesStop, { count: licence.devices.length })}</dd>
            </div>
          </dl>
        </ConfirmDialog>
      </>
    );
  }
  return (
    <section className="content-section" aria-labelledby="licence-money-back-heading">
      <h2 id="licence-money-back-heading" className="content-section__heading">
        {texts.heading}
      </h2>
      <div className="card">{body}</div>
    </section>
  );
}
