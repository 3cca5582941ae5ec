import { useEffect } from 'react';
import { Link, Redirect } from 'wouter';
import { format } from '../../i18n/catalogues';
import { isLang } from '../../i18n/languages';
import { useT } from '../../i18n/useT';
import { useCurrentLocation, useSearchParams } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { inLanguage } from '../../session/navigation';
import { renewSession } from '../../session/session';
import { appStore, useAppStore } from '../../store';
import { PageMeta } from '../../ui/PageMeta';
import { ExpiredLink } from '../../ui/ExpiredLink';
import '../../ui/kit.css';

/**
 * Target of the confirmation mail (spec section 2: /register/confirm?email=..&localeCode=..).
 * Shown in the mail's language; a logged-in user's token is renewed to pick up scope 1.
 * The server sends a bad or expired link here with `errorCode` instead.
 */
export default function RegisterConfirmPage() {
  const t = useT();
  const lang = useLang();
  const paths = usePaths();
  const { pathname, search } = useCurrentLocation();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const localeCode = params.get('localeCode')?.toLowerCase();
  const failed = params.has('errorCode');
  const user = useAppStore((s) => s.user);

  useEffect(() => {
    if (!failed && user && user.scope < 1) void renewSession(appStore);
  }, [failed, user]);

  if (isLang(localeCode) && localeCode !== lang) {
    return <Redirect replace to={inLanguage(`${pathname}${search}`, localeCode)} />;
  }
  if (failed) return <ExpiredLink />;

  return (
    <section className="form-page">
      <PageMeta title={t.auth.registerConfirm.heading} />
      <h1 className="page__heading">{t.auth.registerConfirm.heading}</h1>
      <p>{format(t.auth.registerConfirm.body, { email })}</p>
      <div className="form-links">
        {user ? (
          <Link className="button button--primary" to={paths.home()}>
            {t.auth.registerConfirm.continue}
          </Link>
        ) : (
          <Link className="button button--primary" to={paths.login({ email })}>
            {t.auth.actions.goLogin}
          </Link>
        )}
      </div>
    </section>
  );
}
