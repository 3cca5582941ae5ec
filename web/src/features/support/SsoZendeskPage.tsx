import { useEffect, useRef } from 'react';
import { leaveSite } from '../../browser/leave';
import { accountErrorMessage } from '../../errors/accountErrors';
import { useT } from '../../i18n/useT';
import { useNavigate, useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { toOperationError } from '../../session/operations';
import { checkSession } from '../../session/session';
import { appStore } from '../../store';
import { AlertDialog } from '../../ui/AlertDialog';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import { useAlert } from '../../ui/useAlert';
import { getDeskSignOn } from './api';

/** The desk's answer when the account has no name yet (the name page comes first). */
export const NAME_REQUIRED = -2101;
/** The account's email is not confirmed yet. */
export const NOT_APPROVED = -401;

/**
 * /{lang}/sso/zendesk?zendesk_url=: signs the customer on to the support desk (spec sections 2 and 4).
 * Logged out: login, which comes back here (return_to). Scope 0: register/auth. No name yet: the name
 * page, which comes back here. Otherwise off to the desk's JWT sign-on address the server built, whose
 * return address is the zendesk_url when that is on the desk's own host.
 */
export default function SsoZendeskPage() {
  const t = useT();
  const paths = usePaths();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const zendeskUrl = params.get('zendesk_url') ?? undefined;
  const { alert, show, close } = useAlert();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const user = await checkSession(appStore);
      if (!user) {
        navigate(paths.login({ return_to: zendeskUrl ?? '' }), { replace: true });
        return;
      }
      if (user.scope < 1) {
        navigate(paths.registerAuth(), { replace: true });
        return;
      }
      try {
        const { signOnUrl } = await getDeskSignOn(user.accessToken, zendeskUrl);
        leaveSite(signOnUrl);
      } catch (error) {
        const failure = toOperationError(error);
        if (failure.code === NAME_REQUIRED) {
          navigate(paths.accountName({ zendesk_url: zendeskUrl }), { replace: true });
        } else if (failure.code === NOT_APPROVED) {
          navigate(paths.registerAuth(), { replace: true });
        } else {
          show({
            title: t.support.sso.errorTitle,
            message: accountErrorMessage(t, failure),
            then: () => navigate(paths.home(), { replace: true }),
          });
        }
      }
    })();
  }, [navigate, paths, show, t, zendeskUrl]);

  return (
    <>
      <PageMeta title={t.support.sso.heading} />
      <PageLoading />
      <AlertDialog alert={alert} onClose={close} />
    </>
  );
}
