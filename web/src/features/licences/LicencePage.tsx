import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Redirect } from 'wouter';
import { useCount } from '../../i18n/useCount';
import { useT } from '../../i18n/useT';
import { useSearchParams } from '../../routing/location';
import { usePaths } from '../../routing/usePaths';
import { RequireScope } from '../../session/RequireScope';
import { checkSession, getAccessToken, renewSession } from '../../session/session';
import { appStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import type { UserLicence } from '../../api/models';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { featureErrorMessage, toFeatureError } from '../../errors/featureError';
import { useBearerLoad } from '../../session/useBearerLoad';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import { usePaintedOnce } from '../../ui/usePaintedOnce';
import { joinOpenBeta } from './api';
import { myLicences } from './preload';
import { licencePeriod, licencePeriodText, stateLabel } from './display';
import { openBetaMessage } from './errors';
import { KeyFormCard } from './KeyFormCard';
import { AppDownloads } from '../../ui/AppDownloads';
import { licenceLinkStep, serverLinkCalls, type LinkStep } from './licenceLink';
import './licences.css';
import '../../ui/kit.css';

// The key form's code (react-hook-form, zod) loads once the list has painted: the list is the page's largest paint.
const LicenceKeyForm = lazy(() => import('./LicenceKeyForm'));

/** /{lang}/license: the user's licences, registration by key and the open-beta licence. */
export default function LicencePage() {
  const [params] = useSearchParams();
  const userLicenseKey = params.get('userLicenseKey');
  const page = (
    <RequireScope>
      <LicenceList />
    </RequireScope>
  );
  if (!userLicenseKey) return page;
  return (
    <LicenceLinkGate userLicenseKey={userLicenseKey} email={params.get('email') ?? undefined}>
      {page}
    </LicenceLinkGate>
  );
}

/** A licence link (spec section 4) decides first whether this visitor sees the page or goes elsewhere. */
function LicenceLinkGate({
  userLicenseKey,
  email,
  children,
}: {
  userLicenseKey: string;
  email: string | undefined;
  children: ReactNode;
}) {
  const paths = usePaths();
  const [step, setStep] = useState<LinkStep | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const user = await checkSession(appStore);
      const calls = serverLinkCalls(() => renewSession(appStore));
      setStep(await licenceLinkStep({ user, userLicenseKey, email }, calls));
    })();
  }, [userLicenseKey, email]);

  if (step === null) return <PageLoading />;
  switch (step.to) {
    case 'licence':
      return <>{children}</>;
    case 'registerAuth':
      return <Redirect replace to={paths.registerAuth()} />;
    case 'login':
      return (
        <Redirect
          replace
          to={paths.login({ email: step.email })}
          state={{ from: paths.license({ userLicenseKey, email: step.email }) }}
        />
      );
    case 'emailAuth':
      return <Redirect replace to={paths.emailAuth({ email: step.email })} />;
    case 'register':
      return <Redirect replace to={paths.register({ userLicenseKey: step.userLicenseKey, email: step.email })} />;
    case 'home':
      return <Redirect replace to={paths.home()} />;
  }
}

function LicenceList() {
  const t = useT();
  const count = useCount();
  const paths = usePaths();
  const [params] = useSearchParams();
  const { alert, show, close } = useAlert();
  const [notice, setNotice] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const { state, reload } = useBearerLoad<UserLicence[]>(
    (token) => myLicences(token),
    (error) => show({ title: t.payments.errorTitles.licenceList, message: featureErrorMessage(t, error) }),
    'licences',
  );
  const licences = state.status === 'ready' ? state.data : state.status === 'failed' ? [] : null;
  const initialKey = params.get('userLicenseKey') ?? '';
  const painted = usePaintedOnce(licences !== null);
  const idleKeyForm = <KeyFormCard inputProps={{ defaultValue: initialKey, disabled: true }} />;

  const onJoinBeta = async () => {
    setNotice(null);
    setJoining(true);
    try {
      await joinOpenBeta(await getAccessToken(appStore));
      setNotice(t.licences.openBeta.joined);
      reload();
    } catch (error) {
      show({ title: t.payments.errorTitles.openBeta, message: openBetaMessage(t, toFeatureError(error)) });
    } finally {
      setJoining(false);
    }
  };

  return (
    <section className="content-page">
      <PageMeta title={t.licences.heading} />
      <h1 className="page__heading">{t.licences.heading}</h1>
      <StatusLine>{notice}</StatusLine>

      {licences === null ? (
        <PageLoading />
      ) : licences.length === 0 ? (
        <div className="card licences__empty">
          <p>{t.licences.empty}</p>
          <Link className="button button--primary" to={paths.purchase()}>
            {t.licences.goPurchase}
          </Link>
        </div>
      ) : (
        <ul className="card-list" aria-label={t.licences.heading}>
          {licences.map((licence) => (
            <li key={licence.id} className="card licence-item">
              <h2 className="licence-item__name">
                <Link to={paths.licenseDetail(licence.id)}>{licence.name}</Link>
              </h2>
              <dl className="facts">
                <dt>{t.licences.licenseKey}</dt>
                <dd className="key-text licence-item__key">{licence.licenseKey}</dd>
                <dt>{t.licences.period}</dt>
                <dd>
                  {licencePeriodText(licencePeriod(licence), {
                    lifetime: t.licences.lifetime,
                    unknown: t.licences.unknownPeriod,
                  })}
                </dd>
                <dt>{t.licences.renewal}</dt>
                <dd data-testid="licence-renewal">
                  {licence.isScheduled ? t.licences.autoRenewing : t.licences.noRenewal}
                </dd>
                {licence.isScheduled && readTime(licence.scheduledPayment?.nextPaymentAt) && (
                  <>
                    <dt>{t.licences.nextCharge}</dt>
                    <dd data-testid="licence-next-charge">
                      {formatDateTime(readTime(licence.scheduledPayment?.nextPaymentAt)!)}
                    </dd>
                  </>
                )}
                <dt>{t.licences.state}</dt>
                <dd>{stateLabel(t.licences.states, licence.state)}</dd>
                {licence.state === 'reserved' && readTime(licence.depositDeadline) && (
                  <>
                    <dt>{t.licences.depositDeadline}</dt>
                    <dd>{formatDateTime(readTime(licence.depositDeadline)!)}</dd>
                  </>
                )}
                <dt>{t.licences.devicesHeading}</dt>
                <dd>
                  {count(t.licences.devicesCount, licence.maxDevicesCount, { used: licence.devices.length })}
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      )}

      {/* Shown with the list, not before it: tools under the loading view would move down when the list came. */}
      {licences !== null && (
        <div className="licences__tools">
          <Suspense fallback={idleKeyForm}>
            {painted ? (
              <LicenceKeyForm
                initialKey={initialKey}
                onRegistered={() => {
                  setNotice(t.licences.register.done);
                  reload();
                }}
                onFailed={(failure) =>
                  show({ title: t.payments.errorTitles.licenceRegister, message: featureErrorMessage(t, failure) })
                }
              />
            ) : (
              idleKeyForm
            )}
          </Suspense>
          <div className="card">
            <h2 className="content-section__heading">{t.licences.openBeta.heading}</h2>
            <p className="hint">{t.licences.openBeta.lead}</p>
            <Button variant="secondary" loading={joining} onClick={() => void onJoinBeta()}>
              {t.licences.openBeta.join}
            </Button>
          </div>
        </div>
      )}
      {licences !== null && <AppDownloads />}
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}
