/**
 * A payment's refund on the customer page: how much, what a partial refund does to the licence (kept as it is, or
 * shortened to what is left paid for) with the licence's new end shown before anything moves, and recording a refund
 * made at the payment gateway itself (PortOne's console) that our log does not hold yet.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type RefundPreview, staffCall } from '../api';
import { useT } from '../i18n';

export type RefundAsked = { merchantUid: string; amount: number | null; licenceEffect: 'keep' | 'shorten' | null };

export function PaymentRefund({
  merchantUid,
  currency,
  refund,
  recordGatewayRefund,
}: {
  merchantUid: string;
  currency: string;
  refund: (asked: RefundAsked) => void;
  recordGatewayRefund: (merchantUid: string) => void;
}) {
  const t = useT();
  const [typed, setTyped] = useState('');
  const [effect, setEffect] = useState<'keep' | 'shorten' | null>(null);
  const amount = typed && Number(typed) > 0 ? Math.floor(Number(typed)) : null;
  const preview = useQuery({
    queryKey: ['refund-preview', merchantUid, amount],
    queryFn: () =>
      staffCall<RefundPreview>('GET', `/payments/${merchantUid}/refund-preview${amount ? `?amount=${amount}` : ''}`),
  });
  const seen = preview.data;
  const choose = seen !== undefined && !seen.revokes && seen.shortenedTo !== null;
  const day = (value: string | null | undefined) => (value ? value.slice(0, 10) : '-');
  return (
    <div className="payment-refund">
      <label>
        {`${t('amount')} ${merchantUid}`}{' '}
        <input inputMode="numeric" value={typed} onChange={(event) => setTyped(event.target.value)} />
      </label>{' '}
      {seen ? (
        <p role="status" data-testid={`refund-preview-${merchantUid}`}>
          {`${t('refund')} ${seen.amount} ${currency} / ${t('refundable')} ${seen.refundable}: `}
          {seen.revokes
            ? t('refundRevokes')
            : effect === 'shorten' && seen.shortenedTo
              ? `${t('refundShortensTo')} ${day(seen.shortenedTo)}`
              : `${t('refundKeepsUntil')} ${day(seen.expiresAt)}`}
          {seen.unrecorded ? ` (${t('unrecordedAtGateway')}: ${seen.unrecorded} ${currency})` : null}
        </p>
      ) : null}
      {choose ? (
        <fieldset>
          <legend>{t('licenceAfterRefund')}</legend>
          <label>
            <input type="radio" name={`effect-${merchantUid}`} checked={effect === 'keep'} onChange={() => setEffect('keep')} />
            {t('keepLicence')}
          </label>{' '}
          <label>
            <input
              type="radio"
              name={`effect-${merchantUid}`}
              checked={effect === 'shorten'}
              onChange={() => setEffect('shorten')}
            />
            {`${t('shortenLicence')} (${day(seen?.shortenedTo)})`}
          </label>
        </fieldset>
      ) : null}
      <button
        type="button"
        disabled={choose && effect === null}
        onClick={() => refund({ merchantUid, amount, licenceEffect: choose ? effect : null })}
      >
        {`${t('refund')} ${merchantUid}`}
      </button>{' '}
      <button type="button" onClick={() => recordGatewayRefund(merchantUid)}>
        {`${t('recordGatewayRefund')}: ${merchantUid}`}
      </button>
    </div>
  );
}
