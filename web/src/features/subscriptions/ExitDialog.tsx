/**
 * The honest exit (docs/subscriptions.md): one dialog asks why (optional reasons and free text) and, when the
 * server says one is open, shows the one retention offer beside the question. Its buttons say what they do:
 * "keep auto-renewal" closes and changes nothing; "stop auto-renewal" stops it (declining the offer when one is
 * shown: no second "are you sure"); the offer's own button takes it and keeps auto-renewal on.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Subscription } from '../../api/models';
import { formatPrice } from '../../display/currency';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { Button } from '../../ui/Button';
import { ModalFrame } from '../../ui/ModalFrame';
import { getExitQuestion, leave, stay, type ExitAnswers, type ExitQuestion } from './exit';
import { EXIT_TEXT, type ExitText } from './exitText';
import './exit.css';

export type ExitOutcome = { kind: 'cancelled'; subscription: Subscription } | { kind: 'stayed'; subscription: Subscription; message: string };

export function ExitDialog({
  userLicenseId,
  message,
  onClose,
  onDone,
  onFailed,
}: {
  userLicenseId: string;
  /** What stopping means for this subscription (until when the licence works, or that it ends now). */
  message: string;
  onClose: () => void;
  onDone: (outcome: ExitOutcome) => void;
  onFailed: (error: unknown) => void;
}) {
  const t = useT();
  const lang = useLang();
  const text: ExitText = EXIT_TEXT[lang];
  const titleId = useId();
  const messageId = useId();
  const commentId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  const [question, setQuestion] = useState<ExitQuestion | null | 'failed'>(null);
  const [reasons, setReasons] = useState<string[]>([]);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState<'stop' | 'stay' | null>(null);

  useEffect(() => {
    keepRef.current?.focus();
    let live = true;
    void (async () => {
      try {
        const asked = await getExitQuestion(userLicenseId, await getAccessToken(appStore));
        if (live) setQuestion(asked);
      } catch {
        if (live) setQuestion('failed');
      }
    })();
    return () => {
      live = false;
    };
  }, [userLicenseId]);

  const asked = question === 'failed' ? null : question;
  const offer = asked?.offer ?? null;
  const answers = (): ExitAnswers => ({ reasons, comment: comment.trim() });
  const percent = offer ? String(offer.percentOff) : '';
  const offered = offer ? formatPrice(offer.offeredPrice, offer.currency, lang) : '';
  const renewsAt = offer ? readTime(offer.renewsAt) : undefined;

  const act = async (which: 'stop' | 'stay') => {
    setBusy(which);
    try {
      const token = await getAccessToken(appStore);
      if (which === 'stop') {
        onDone({ kind: 'cancelled', subscription: await leave(userLicenseId, answers(), offer !== null, token) });
      } else {
        const next = await stay(userLicenseId, answers(), token);
        onDone({ kind: 'stayed', subscription: next, message: format(text.stayed, { percent, offered }) });
      }
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <ModalFrame labelledBy={titleId} describedBy={messageId} onEscape={onClose}>
      <h2 id={titleId} className="dialog__title">
        {text.title}
      </h2>
      <p id={messageId} className="dialog__message">
        {message}
      </p>
      {asked && (
        <fieldset className="exit__question">
          <legend>
            {text.question} {text.optional}
          </legend>
          {asked.reasons.map((reason) => (
            <label key={reason} className="exit__reason">
              <input
                type="checkbox"
                checked={reasons.includes(reason)}
                onChange={(event) =>
                  setReasons(event.target.checked ? [...reasons, reason] : reasons.filter((item) => item !== reason))
                }
              />
              {text.reasons[reason] ?? reason}
            </label>
          ))}
          <label htmlFor={commentId} className="exit__comment-label">
            {text.comment} {text.optional}
          </label>
          <textarea
            id={commentId}
            className="exit__comment"
            rows={3}
            maxLength={asked.commentLimit}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        </fieldset>
      )}
      {question === 'failed' && <p className="hint">{text.loadFailed}</p>}
      {offer && (
        <section className="exit__offer" aria-label={text.offerHeading}>
          <h3 className="exit__offer-heading">{text.offerHeading}</h3>
          <p>
            {format(text.offer, {
              percent,
              offered,
              price: formatPrice(offer.price, offer.currency, lang),
              date: renewsAt ? formatDateTime(renewsAt) : '',
            })}
          </p>
          <Button loading={busy === 'stay'} disabled={busy !== null} onClick={() => void act('stay')}>
            {format(text.accept, { percent })}
          </Button>
          <p className="hint">{text.offerOnce}</p>
        </section>
      )}
      <div className="dialog__actions">
        <button ref={keepRef} type="button" className="button button--secondary" disabled={busy !== null} onClick={onClose}>
          {t.subscriptions.keepRenewing}
        </button>
        <Button variant={offer ? 'secondary' : 'primary'} loading={busy === 'stop'} disabled={busy !== null} onClick={() => void act('stop')}>
          {t.subscriptions.cancel}
        </Button>
      </div>
    </ModalFrame>
  );
}
