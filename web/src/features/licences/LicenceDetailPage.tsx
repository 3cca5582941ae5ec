import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'wouter';
import { formatPrice } from '../../display/currency';
import { format } from '../../i18n/catalogues';
import { useCount } from '../../i18n/useCount';
import { useT } from '../../i18n/useT';
import { useNavigate } from '../../routing/location';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { RequireScope } from '../../session/RequireScope';
import { getAccessToken } from '../../session/session';
import { appStore } from '../../store';
import { PageLoading } from '../../ui/PageLoading';
import { PageMeta } from '../../ui/PageMeta';
import type { Device, UserLicenceDetail } from '../../api/models';
import { formatDateTime, readTime } from '../../display/serverTimes';
import { featureErrorMessage, isNotFoundGoingHome, toFeatureError, type FeatureError } from '../../errors/featureError';
import { useBearerLoad } from '../../session/useBearerLoad';
import { AlertDialog } from '../../ui/AlertDialog';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FieldError, fieldErrorText } from '../../ui/FieldError';
import { StatusLine } from '../../ui/StatusLine';
import { useAlert } from '../../ui/useAlert';
import { zodResolver } from '@hookform/resolvers/zod';
import { getMoneyBackRequests, getMyLicence, removeDevice, renameDevice } from './api';
import { MoneyBack, type MoneyBackState } from './MoneyBack';
import { deviceName, licencePeriod, licencePeriodText, stateLabel } from './display';
import { deviceRenameMessage } from './errors';
import { deviceNameSchema, type DeviceNameForm } from './schemas';
import { platformName } from '../../display/platforms';
import './licences.css';
import '../../ui/kit.css';

/** /{lang}/license/{userLicenseId}: one licence with its devices (rename, remove) and payments. */
export default function LicenceDetailPage({ subscription }: { subscription?: SubscriptionSlot }) {
  return (
    <RequireScope>
      <LicenceDetail subscription={subscription} />
    </RequireScope>
  );
}

/**
 * The licence's subscription part, given by the app (features/subscriptions): the licence and a
 * callback for when the subscription changed the licence.
 */
export type SubscriptionSlot = (userLicenseId: string, onChanged: () => void) => ReactNode;

function LicenceDetail({ subscription }: { subscription: SubscriptionSlot | undefined }) {
  const t = useT();
  const count = useCount();
  const lang = useLang();
  const paths = usePaths();
  const navigate = useNavigate();
  const { userLicenseId = '' } = useParams();
  const { alert, show, close } = useAlert();
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<Device['id'] | null>(null);
  const [removing, setRemoving] = useState<Device | null>(null);

  const moneyBack = useMoneyBackStates();

  const loadFailed = (error: FeatureError) =>
    show({
      title: t.payments.errorTitles.licenceDetail,
      message: isNotFoundGoingHome(error) ? t.payments.notFoundGoingHome : featureErrorMessage(t, error),
      then: isNotFoundGoingHome(error) ? () => navigate(paths.home(), { replace: true }) : undefined,
    });
  const { state, reload } = useBearerLoad<UserLicenceDetail>(
    (token) => getMyLicence(userLicenseId, token),
    loadFailed,
    `licence-${userLicenseId}`,
  );

  const onRemove = async (device: Device) => {
    setRemoving(null);
    setNotice(null);
    try {
      await removeDevice(userLicenseId, device.id, await getAccessToken(appStore));
      setNotice(t.licences.removed);
    } catch (error) {
      show({ title: t.payments.errorTitles.deviceRemove, message: featureErrorMessage(t, toFeatureError(error)) });
    }
    reload();
  };

  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'failed') {
    return (
      <section className="content-page">
        <PageMeta title={t.licences.detailHeading} />
        <h1 className="page__heading">{t.licences.detailHeading}</h1>
        <Link to={paths.license()}>{t.licences.back}</Link>
        <AlertDialog alert={alert} onClose={close} />
      </section>
    );
  }

  const licence = state.data;
  const period = licencePeriodText(licencePeriod(licence), {
    lifetime: t.licences.lifetime,
    unknown: t.licences.unknownPeriod,
  });
  const fallbackName = t.licences.deviceFallback;
  // What the server says the holder may do now; the page offers exactly that (an App Store licence's
  // isDisableUpgrade is already left out of it, by the server).
  const allowed = new Set(licence.allowedActions);
  // A licence a store bills (its payments are the store's) is managed there; the server disables its upgrade.
  const store = licence.payments
    .map((payment) => payment.payMethod)
    .find((method): method is 'app-store' | 'google-play' => method === 'app-store' || method === 'google-play');

  return (
    <section className="content-page">
      <PageMeta title={licence.name} />
      <p>
        <Link to={paths.license()}>{t.licences.back}</Link>
      </p>
      <h1 className="page__heading">{licence.name}</h1>
      <StatusLine>{notice}</StatusLine>

      <div className="card">
        <dl className="facts">
          <dt>{t.licences.licenseKey}</dt>
          <dd className="key-text">{licence.licenseKey}</dd>
          <dt>{t.licences.period}</dt>
          <dd data-testid="licence-period">{period}</dd>
          <dt>{t.licences.state}</dt>
          <dd>{stateLabel(t.licences.states, licence.state)}</dd>
          {store && (
            <>
              <dt>{t.licences.boughtIn}</dt>
              <dd data-testid="licence-store">{t.licences.storeNames[store]}</dd>
            </>
          )}
          {licence.state === 'reserved' && readTime(licence.depositDeadline) && (
            <>
              <dt>{t.licences.depositDeadline}</dt>
              <dd>{formatDateTime(readTime(licence.depositDeadline)!)}</dd>
            </>
          )}
        </dl>
        {licence.isDisableUpgrade && <p className="card__note">{t.licences.storeNote}</p>}
      </div>

      {allowed.has('upgrade') && (
        <p>
          <Link className="button" to={paths.licenseUpgrade(userLicenseId)}>
            {t.upgrades.heading}
          </Link>
        </p>
      )}

      {subscription?.(userLicenseId, reload)}

      <section className="content-section licence-devices" aria-labelledby="licence-devices-heading">
        <h2 id="licence-devices-heading" className="content-section__heading">
          {t.licences.devicesHeading}{' '}
          <span className="hint">
            ({count(t.licences.devicesCount, licence.maxDevicesCount, { used: licence.devices.length })})
          </span>
        </h2>
        {licence.devices.length === 0 ? (
          <p>{t.licences.noDevices}</p>
        ) : (
          <ul className="card-list">
            {licence.devices.map((device) => (
              <li key={device.id} className="card licence-device">
                {editing === device.id ? (
                  <RenameForm
                    initial={device.registrationData?.deviceName ?? ''}
                    onCancel={() => setEditing(null)}
                    onSave={async (name) => {
                      setNotice(null);
                      try {
                        await renameDevice(userLicenseId, device.id, name, await getAccessToken(appStore));
                        setEditing(null);
                        setNotice(t.licences.renamed);
                        reload();
                        return null;
                      } catch (error) {
                        return deviceRenameMessage(t, toFeatureError(error));
                      }
                    }}
                  />
                ) : (
                  <>
                    <span className="licence-device__name">{deviceName(device, fallbackName)}</span>
                    {device.platform && <span className="hint">{platformName(device.platform)}</span>}
                    {readTime(device.lastSeenAt) && (
                      <span className="hint licence-device__last-seen">
                        {format(t.licences.lastSeen, { time: formatDateTime(readTime(device.lastSeenAt)!) })}
                      </span>
                    )}
                    <span className="licence-device__actions">
                      {allowed.has('renameDevice') && (
                        <button type="button" className="button button--secondary" onClick={() => setEditing(device.id)}>
                          {t.licences.rename}
                          <span className="visually-hidden"> {deviceName(device, fallbackName)}</span>
                        </button>
                      )}
                      {allowed.has('removeDevice') && (
                        <button type="button" className="button button--secondary" onClick={() => setRemoving(device)}>
                          {t.licences.remove}
                          <span className="visually-hidden"> {deviceName(device, fallbackName)}</span>
                        </button>
                      )}
                    </span>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <MoneyBack licence={licence} known={knownMoneyBack(licence, moneyBack)} onAnswered={reload} />

      {licence.payments && licence.payments.length > 0 && (
        <section className="content-section" aria-labelledby="licence-payments-heading">
          <h2 id="licence-payments-heading" className="content-section__heading">
            {t.licences.paymentsHeading}
          </h2>
          <ul className="card-list">
            {licence.payments.map((payment) => {
              const paidAt = readTime(payment.paidAt);
              return (
                <li key={payment.merchantUid} className="card licence-payment">
                  <Link to={paths.purchaseHistoryDetail(payment.merchantUid)}>{payment.name}</Link>
                  <span>{formatPrice(payment.amount, payment.currency, lang)}</span>
                  {paidAt && <span className="hint">{formatDateTime(paidAt)}</span>}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <ConfirmDialog
        message={removing ? format(t.licences.removeConfirm, { name: deviceName(removing, fallbackName) }) : null}
        confirmLabel={t.licences.remove}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void onRemove(removing);
        }}
      />
      <AlertDialog alert={alert} onClose={close} />
    </section>
  );
}

/** Inline rename of a device; `onSave` resolves with an error text, or null when saved. */
function RenameForm({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (name: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const t = useT();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DeviceNameForm>({ resolver: zodResolver(deviceNameSchema), defaultValues: { deviceName: initial } });
  const onSubmit = handleSubmit(async ({ deviceName: name }) => {
    const problem = await onSave(name);
    if (problem) setError('deviceName', { type: 'server', message: problem }, { shouldFocus: true });
  });
  const error = fieldErrorText(errors.deviceName, t.licences.validation);
  return (
    <form className="licence-rename" noValidate onSubmit={onSubmit}>
      <label className="field__label" htmlFor="device-name">
        {t.licences.renameLabel}
      </label>
      <div className="button-row">
        <input
          id="device-name"
          className="field__input"
          autoFocus
          maxLength={80}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'device-name-error' : undefined}
          {...register('deviceName')}
        />
        <Button type="submit" loading={isSubmitting}>
          {t.licences.save}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t.licences.cancel}
        </Button>
      </div>
      <FieldError id="device-name-error">{error}</FieldError>
    </form>
  );
}


/** The caller's money-back requests by merchantUid, read once when the page opens (none until they arrive; a
 * failed read leaves every payment's button as it was). */
function useMoneyBackStates(): Record<string, MoneyBackState> {
  const [states, setStates] = useState<Record<string, MoneyBackState>>({});
  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        const requests = await getMoneyBackRequests(await getAccessToken(appStore));
        if (current) setStates(Object.fromEntries(requests.map((request) => [request.merchantUid, request])));
      } catch {
        // The page still offers the request; asking answers the state.
      }
    })();
    return () => {
      current = false;
    };
  }, []);
  return states;
}

/** The licence's money-back request, if one was made (it is filed under the payment the licence was bought with). */
function knownMoneyBack(licence: UserLicenceDetail, states: Record<string, MoneyBackState>): MoneyBackState | undefined {
  return (licence.payments ?? []).map((payment) => states[payment.merchantUid]).find(Boolean);
}
