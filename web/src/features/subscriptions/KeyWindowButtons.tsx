/**
 * Buttons that register a billing key in a KakaoPay or Naver Pay window for one licence's
 * subscription (resume, or change the payment method), then make the call with the new key.
 * A phone leaves for the window and comes back through the confirm page, which finishes the job.
 */
import { useState } from 'react';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { usePaths } from '../../routing/usePaths';
import { getAccessToken } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { Button } from '../../ui/Button';
import { browserKeyWindow } from '../../billing/browserKeyWindow';
import { runKeyWindow, type KeyIntent, type KeyWindowSettlement } from '../../billing/keyWindow';
import { WINDOW_ONLY_METHODS, type KeyRequestType } from '../../billing/paymentMethods';
import '../../ui/kit.css';

export function KeyWindowButtons({
  intent,
  disabled = false,
  onSettled,
}: {
  intent: Exclude<KeyIntent, { kind: 'subscribe' }>;
  disabled?: boolean;
  onSettled: (settled: KeyWindowSettlement) => void;
}) {
  const t = useT();
  const paths = usePaths();
  const email = useAppStore((s) => s.user?.email ?? '');
  const [running, setRunning] = useState<KeyRequestType | null>(null);

  const open = async (requestType: KeyRequestType) => {
    setRunning(requestType);
    const token = await getAccessToken(appStore);
    const settled = await runKeyWindow(
      {
        requestType,
        intent,
        name: t.subscriptions.windowOrderName,
        buyerEmail: email,
        redirectUrl: `${window.location.origin}${paths.paymentConfirm()}`,
        token,
      },
      browserKeyWindow,
    );
    setRunning(null);
    onSettled(settled);
  };

  return (
    <div className="licence-subscription__windows">
      <p className="hint">{t.subscriptions.orWindow}</p>
      <div className="button-row">
        {WINDOW_ONLY_METHODS.map((method) => (
          <Button
            key={method}
            variant="secondary"
            loading={running === method}
            disabled={disabled || (running !== null && running !== method)}
            onClick={() => void open(method)}
          >
            {format(t.subscriptions.registerWith, { method: t.purchase.methods[method] })}
          </Button>
        ))}
      </div>
    </div>
  );
}
