/**
 * Which card pays an auto-renewing subscription: each card the member already registered (the payment-methods
 * page's billing keys, the default one first chosen) or a new card typed below, so nobody retypes a saved card.
 */
import type { ReactNode } from 'react';
import type { BillingKey } from '../../api/models';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';

/** The choice of typing a new card. */
export const NEW_CARD = 'new';

export function SavedCardChoice({
  cards,
  chosen,
  onChoose,
  children,
}: {
  cards: readonly BillingKey[];
  chosen: string;
  onChoose: (billingkeyId: string) => void;
  /** The new card's fields, shown while it is chosen. */
  children: ReactNode;
}) {
  const t = useT();
  const texts = t.purchase.savedCards;
  return (
    <fieldset className="content-section" data-testid="saved-cards">
      <legend>{texts.heading}</legend>
      <div className="purchase__options purchase__options--methods">
        {cards.map((key) => (
          <label key={key.billingkeyId} className="purchase-option">
            <input
              type="radio"
              name="subscription-card"
              value={key.billingkeyId}
              checked={chosen === key.billingkeyId}
              onChange={() => onChoose(key.billingkeyId)}
            />
            <span className="purchase-option__name">
              {format(key.isDefault ? texts.savedDefault : texts.saved, {
                card: [key.cardName, key.cardNumber].filter(Boolean).join(' ') || texts.unnamed,
              })}
            </span>
          </label>
        ))}
        <label className="purchase-option">
          <input
            type="radio"
            name="subscription-card"
            value={NEW_CARD}
            checked={chosen === NEW_CARD}
            onChange={() => onChoose(NEW_CARD)}
          />
          <span className="purchase-option__name">{texts.newCard}</span>
        </label>
      </div>
      {children}
    </fieldset>
  );
}
