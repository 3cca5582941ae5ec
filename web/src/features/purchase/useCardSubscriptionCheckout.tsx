/**
 * A member's auto-renewing subscription with a card typed on the page: the card becomes a billing
 * key and pays the first period at once. The card's fields are checked together with the order's.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { CardFields } from '../../billing/CardFields';
import { cardSchema, EMPTY_CARD, expiryYears, toCardBody, type CardForm } from '../../billing/cardSchema';
import { featureErrorMessage, toFeatureError } from '../../errors/featureError';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { postSubscriptionWithNewCard } from './api';
import type { Checkout, CheckoutContext } from './checkoutContext';

export function useCardSubscriptionCheckout({
  order,
  licence,
  country,
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

  const subscribe = async (entered: CardForm) => {
    if (!licence) return;
    setPaying(true);
    try {
      const token = await getAccessToken(appStore);
      const subscription = await postSubscriptionWithNewCard(
        { licenseId: licence.id, countryCode: country, card: toCardBody(entered), ...(couponCode ? { code: couponCode } : {}) },
        token,
      );
      card.reset();
      navigate(paths.paymentConfirm(), { state: { subscription } });
    } catch (error) {
      setPaying(false);
      showAlert({ title: t.payments.errorTitles.payment, message: featureErrorMessage(t, toFeatureError(error)) });
    }
  };

  const submit: Checkout['submit'] = async (event) => {
    // The card's errors show together with the order's.
    void card.trigger();
    await order.handleSubmit(async () => {
      if (!licence || paying) return;
      await card.handleSubmit(subscribe)();
    })(event);
  };

  return { submit, fields: <CardFields form={card} years={expiryYears(now)} /> };
}
