import { useEffect } from 'react';
import { loadIntegrations } from '../config/integrations';
import { useLang } from '../routing/useLang';
import { getAccessToken } from '../session/session';
import { appStore, useAppStore } from '../store';

/**
 * Boots the chat widget once the session is known, and again when the member or the language changes.
 * The widget's code is a dynamic import, fetched only when a chat script is configured.
 */
export function ChatWidget() {
  const checked = useAppStore((s) => s.sessionChecked);
  const userId = useAppStore((s) => s.user?.userId);
  const lang = useLang();

  useEffect(() => {
    if (!checked) return undefined;
    let cancelled = false;
    void (async () => {
      const settings = await loadIntegrations();
      if (!settings.chatScriptUrl || !settings.chatPluginKey || cancelled) return;
      const [chat, token] = await Promise.all([
        import('../features/support/chat'),
        userId ? getAccessToken(appStore) : Promise.resolve(null),
      ]);
      if (cancelled) return;
      await chat.startChat({
        scriptUrl: settings.chatScriptUrl,
        pluginKey: settings.chatPluginKey,
        language: lang,
        token,
      });
    })();
    return () => {
      cancelled = true;
    };
  }, [checked, userId, lang]);

  return null;
}
