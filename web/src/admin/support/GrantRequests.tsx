/**
 * /admin/grant-requests: grants of paid licence time waiting for a second member (an App Store record, which only a
 * look in App Store Connect verifies, or goodwill beyond what one member gives a licence alone). A member who may
 * approve grants approves or declines each with a reason, after a fresh proof; never the member who asked.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { DataTable } from '../DataTable';
import { useSupportT } from './i18n';

type GrantRequest = components['schemas']['GrantRequestOut'];

export function GrantRequestsNavLink() {
  const t = useSupportT();
  return <Link href="/grant-requests">{t('grantRequests')}</Link>;
}

export function GrantRequestsPage({
  canDecide,
  stepUp,
}: {
  canDecide: boolean;
  stepUp: (run: () => Promise<unknown>) => Promise<unknown>;
}) {
  const t = useSupportT();
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const requests = useQuery({
    queryKey: ['grant-requests'],
    queryFn: () => staffCall<GrantRequest[]>('GET', '/grant-requests?state=waiting'),
  });
  const decide = useMutation({
    mutationFn: ({ requestId, decision }: { requestId: string; decision: 'approve' | 'decline' }) =>
      stepUp(() => staffCall<unknown>('POST', `/grant-requests/${requestId}/${decision}`, { reason })),
    onSuccess: () => void client.invalidateQueries(),
  });
  const columns = useMemo<ColumnDef<GrantRequest>[]>(
    () => [
      {
        id: 'what',
        header: t('grantKind'),
        cell: ({ row }) => {
          const details = row.original.details;
          return row.original.kind === 'goodwill'
            ? t('goodwill', { days: String(details.days) })
            : t('appStorePurchase', {
                transaction: row.original.subject,
                licence: String(details.licence_id),
                country: String(details.country_code),
              });
        },
      },
      { accessorKey: 'reason', header: t('decisionReason') },
      { accessorKey: 'requestedAt', header: t('requestedAt') },
      {
        id: 'decide',
        header: '',
        cell: ({ row }) =>
          canDecide ? (
            <>
              <button type="button" onClick={() => decide.mutate({ requestId: row.original.requestId, decision: 'approve' })}>
                {`${t('approveGrant')} ${row.original.subject}`}
              </button>{' '}
              <button type="button" onClick={() => decide.mutate({ requestId: row.original.requestId, decision: 'decline' })}>
                {`${t('declineGrant')} ${row.original.subject}`}
              </button>
            </>
          ) : null,
      },
    ],
    [t, decide, canDecide],
  );
  const waiting = requests.data ?? [];
  return (
    <section>
      <h1>{t('grantRequests')}</h1>
      {canDecide ? (
        <label>
          {t('decisionReason')} <input value={reason} onChange={(event) => setReason(event.target.value)} />
        </label>
      ) : null}
      {requests.data && waiting.length === 0 ? <p>{t('noGrantRequests')}</p> : null}
      <DataTable data={waiting} columns={columns} label={t('grantRequests')} />
      {decide.error ? <p role="alert">{`${t('failed')}: ${String(decide.error)}`}</p> : null}
      {decide.isSuccess ? <p role="status">{t('done')}</p> : null}
    </section>
  );
}
