/**
 * The support desk's parts of a customer's page: the timeline with each entry's proof (GET /staff/proofs/{id},
 * the inclusion proof the independent verifier checks), the licences flagged for support (a key seen on too many
 * devices), and mailing a licence's key again.
 */
import { useMutation } from '@tanstack/react-query';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { useSupportT } from './i18n';

type TimelineEntry = components['schemas']['TimelineEntry'];
type LicenceFlag = components['schemas']['LicenceFlag'];

const PROOFS = '/web/unicornpro/v1/staff/proofs';

/** Every event of the customer, oldest first, each linking to its proof (the file downloads). */
export function Timeline({ entries, label }: { entries: TimelineEntry[]; label: string }) {
  const t = useSupportT();
  return (
    <ol aria-label={label}>
      {entries.map((entry) => (
        <li
          key={`${entry.aggregateId}-${entry.version}-${entry.topic}`}
          className={entry.topic === 'licence.Flagged' ? 'timeline-flagged' : undefined}
        >
          {entry.at} {entry.topic}
          {typeof entry.fields.reason === 'string' ? ` — ${entry.fields.reason}` : ''}{' '}
          {entry.notificationId ? (
            <a href={`${PROOFS}/${entry.notificationId}`} download={`proof-${entry.notificationId}.json`}>
              {`${t('proof')} #${entry.notificationId}`}
            </a>
          ) : (
            <small>({t('noProof')})</small>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The customer's licences flagged for support, newest first (nothing is blocked: support looks). */
export function Flags({ flags }: { flags: LicenceFlag[] | undefined }) {
  const t = useSupportT();
  if (!flags || flags.length === 0) return null;
  return (
    <section aria-label={t('flags')} className="admin-flags">
      <h2>{t('flags')}</h2>
      <ul>
        {flags.map((flag) => (
          <li key={`${flag.userLicenceId}-${flag.at}`} role="alert">
            {`${flag.licenceKey ?? flag.userLicenceId}: ${t('flagged', { devices: flag.distinctDevices, days: flag.windowDays })} (${flag.at})`}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Mail the licence's key to its holder again (a staff action with the page's reason). */
export function ResendLicenceKey({ licenceId, licenceKey, reason }: { licenceId: string; licenceKey: string; reason: string }) {
  const t = useSupportT();
  const resend = useMutation({
    mutationFn: () => staffCall<void>('POST', `/licences/${licenceId}/resend-licence-key`, { reason }),
  });
  return (
    <>
      <button type="button" onClick={() => resend.mutate()}>
        {`${t('resendLicenceKey')} ${licenceKey}`}
      </button>
      {resend.isSuccess ? <span role="status">{t('done')}</span> : null}
      {resend.error ? <span role="alert">{`${t('failed')}: ${resend.error.message}`}</span> : null}
    </>
  );
}
