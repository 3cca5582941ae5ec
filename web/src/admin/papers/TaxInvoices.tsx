/** Finance's queue of tax-invoice requests (GET /staff/finance/tax-invoices) and its CSV export for an
 * e-tax-invoice service; issuing the invoices happens there, outside this product (docs/papers.md). */
import { useQuery } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { DataTable } from '../DataTable';
import { useTaxInvoicesT } from './i18n';

export type TaxInvoiceRequest = components['schemas']['TaxInvoiceRequestOut'];

export const EXPORT_URL = '/web/unicornpro/v1/staff/finance/tax-invoices.csv';

export function TaxInvoicesPage() {
  const t = useTaxInvoicesT();
  const requests = useQuery({
    queryKey: ['tax-invoices'],
    queryFn: () => staffCall<TaxInvoiceRequest[]>('GET', '/finance/tax-invoices'),
  });
  const columns = useMemo<ColumnDef<TaxInvoiceRequest>[]>(
    () => [
      { header: t('requestedAt'), accessorKey: 'requestedAt' },
      { header: t('withdrawnAt'), id: 'withdrawnAt', accessorFn: (row) => row.withdrawnAt ?? '' },
      { header: t('merchantUid'), accessorKey: 'merchantUid' },
      { header: t('businessNumber'), accessorKey: 'businessNumber' },
      { header: t('companyName'), accessorKey: 'companyName' },
      { header: t('representative'), accessorKey: 'representative' },
      { header: t('email'), accessorKey: 'email' },
      {
        header: t('amount'),
        id: 'amount',
        accessorFn: (row) => `${row.amount.toLocaleString()} ${row.currency}`,
      },
    ],
    [t],
  );
  const rows = requests.data ?? [];
  return (
    <section>
      <h1>{t('taxInvoices')}</h1>
      <p>{t('lead')}</p>
      <p>
        <a href={EXPORT_URL} download>
          {t('export')}
        </a>
      </p>
      {requests.isSuccess && rows.length === 0 ? <p>{t('none')}</p> : null}
      <DataTable data={rows} columns={columns} label={t('taxInvoices')} />
    </section>
  );
}
