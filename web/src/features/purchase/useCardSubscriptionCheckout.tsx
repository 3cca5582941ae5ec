/**
 * A member's auto-renewing subscription paid by card: a card already registered (the payment-methods page's billing
 * keys) or a card typed on the page, which becomes a billing key. Either pays the first period at once; a typed
 * card's fields are checked together with the order's.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { BillingKey } from '../../api/models';
import { CardFields } from '../../billing/CardFields';
import { cardSchema, EMPTY_CARD, expiryYears, toCardBody, type CardForm } from '../../billing/cardSchema';
import { featureErrorMessage, toFeatureError } from '../../errors/featureError';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { getSavedCards, postSubscriptionWithNewCard, postSubscriptionWithSavedCard } from './api';
import type { Checkout, CheckoutContext } from './checkoutContext';
import { SavedCardChoice, NEW_CARD } from './SavedCardChoice';

export function useCardSubscriptionCheckout({
  order,
  licence,
  country,
  member,
  paying,
  setPaying,
  showAlert,
  couponCode,
}: CheckoutContext): Checkout {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const now = useMemo(() => new Date(), []);
  const card = useForm<CardForm>({ resolver: zodResolver(cardSchema(now)), defaultValues: EMPTY_CARD });
  const [saved, setSaved] = useState<readonly BillingKey[]>([]);
  const [chosen, setChosen] = useState<string>(NEW_CARD);
  const memberId = member?.userId ?? null;

  useEffect(() => {
    if (!memberId) return;
    let live = true;
    void (async () => {
      try {
        const wallet = await getSavedCards(await getAccessToken(appStore));
        if (!live) return;
        setSaved(wallet.billingkeys);
        setChosen(wallet.defaultBillingkeyId ?? wallet.billingkeys[0]?.billingkeyId ?? NEW_CARD);
      } catch {
        // No saved card to offer: typing one still works.
      }
    })();
    return () => {
      live = false;
    };
  }, [memberId]);

  const start = async (pay: (token: string | null, common: { licenseId: number; countryCode: string }) => Promise<unknown>) => {
    if (!licence) return;
    setPaying(true);
    try {
      const token = await getAccessToken(appStore);
      const subscription = await pay(token, {
        licenseId: licence.id,
        countryCode: country,
        ...(couponCode ? { code: couponCode } : {}),
      });
      card.reset();
      navigate(paths.paymentConfirm(), { state: { subscription } });
    } catch (error) {
      setPaying(false);
      showAlert({ title: t.payments.errorTitles.payment, message: featureErrorMessage(t, toFeatureError(error)) });
    }
  };

  const usingSaved = chosen !== NEW_CARD && saved.some((key) => key.billingkeyId === chosen);

  const submit: Checkout['submit'] = async (event) => {
    if (usingSaved) {
      await order.handleSubmit(async () => {
        if (!licence || paying) return;
        await start((token, common) => postSubscriptionWithSavedCard({ ...common, billingkeyId: chosen }, token));
      })(event);
      return;
    }
    // The card's errors show together with the order's.
    void card.trigger();
    await order.handleSubmit(async () => {
      if (!licence || paying) return;
      await card.handleSubmit((entered) =>
        start((token, common) => postSubscriptionWithNewCard({ ...common, card: toCardBody(entered) }, token)),
      )();
    })(event);
  };

  const cardFields = <CardFields form={card} years={expiryYears(now)} />;
  return {
    submit,
    fields:
      saved.length > 0 ? (
        <SavedCardChoice cards={saved} chosen={chosen} onChoose={setChosen}>
          {usingSaved ? null : cardFields}
        </SavedCardChoice>
      ) : (
        cardFields
      ),
  };
}
