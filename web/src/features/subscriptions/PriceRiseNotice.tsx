/**
 * Consent before a price rise (docs/catalogue.md; Korea's E-Commerce Act Art. 13(6)): the notice on the licence page
 * with the date of the change, the old and the new price, the card, what happens without an answer (auto-renewal
 * stops at the end of the paid period; the higher price is never charged) and how to stop, with two buttons of equal
 * weight, neither chosen in advance. Only a button answers: opening the mailed link does not.
 */
import { formatPrice } from '../../display/currency';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import type { Subscription } from '../../api/models';
import { Button } from '../../ui/Button';
import { paymentMethodText } from './display';

export function PriceRiseNotice({
  subscription,
  busy,
  onAgree,
  onStop,
}: {
  subscription: Subscription;
  busy: boolean;
  onAgree: () => void;
  onStop: () => void;
}) {
  const t = useT();
  const lang = useLang();
  const rise = subscription.priceRise;
  if (!rise) return null;
  const changesAt = readTime(rise.changesAt);
  const facts = {
    date: changesAt ? formatDateTime(changesAt) : '-',
    old: formatPrice(rise.previousPrice, rise.currency, lang),
    new: formatPrice(rise.newPrice, rise.currency, lang),
    card: paymentMethodText(subscription, t.subscriptions.noCard),
  };
  const texts = t.subscriptions.priceRise;
  const open = rise.answer === 'pending' || (rise.answer === 'declined' && subscription.isScheduled);
  return (
    <div className="card" role="region" aria-label={texts.heading} data-testid="price-rise-notice">
      <h3>{texts.heading}</h3>
      <p>{format(rise.kind === 'free-to-paid' ? texts.freeToPaid : texts.rise, facts)}</p>
      {open && (
        <>
          <p>{format(texts.withoutAnswer, facts)}</p>
          <p className="hint">{texts.howToStop}</p>
          <div className="button-row">
            <Button loading={busy} onClick={onAgree}>
              {texts.agree}
            </Button>
            <Button loading={busy} onClick={onStop}>
              {texts.stop}
            </Button>
          </div>
        </>
      )}
      {rise.answer === 'agreed' && <p data-testid="price-rise-answer">{format(texts.agreed, facts)}</p>}
      {rise.answer === 'declined' && !subscription.isScheduled && (
        <p data-testid="price-rise-answer">{texts.declined}</p>
      )}
      {rise.answer === 'lapsed' && <p data-testid="price-rise-answer">{format(texts.lapsed, facts)}</p>}
    </div>
  );
}
