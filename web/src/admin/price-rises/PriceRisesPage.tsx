/**
 * Consent before a price rise (docs/catalogue.md), for support and marketing (read-customers): per rise, how many
 * agreed, declined, have not answered or lapsed, and who. Read from GET /staff/price-rises; nothing is derived here.
 */
import { useQuery } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../api/schema';
import { staffCall } from '../api';
import { DataTable } from '../DataTable';
import { usePriceRiseT } from './i18n';

type Rise = components['schemas']['RiseOut'];
type Answers = components['schemas']['RiseAnswersOut'];
type Answer = components['schemas']['AnswerOut'];

export default function PriceRisesPage() {
  const t = usePriceRiseT();
  const [version, setVersion] = useState<number | null>(null);
  const rises = useQuery({ queryKey: ['price-rises'], queryFn: () => staffCall<Rise[]>('GET', '/price-rises') });
  const answers = useQuery({
    queryKey: ['price-rises', version],
    queryFn: () => staffCall<Answers>('GET', `/price-rises/${version}`),
    enabled: version !== null,
  });
  const riseColumns = useMemo<ColumnDef<Rise>[]>(
    () => [
      {
        id: 'version',
        header: t('version'),
        cell: ({ row }) => (
          <button type="button" onClick={() => setVersion(row.original.catalogueVersion)}>
            {t('show')} {row.original.catalogueVersion}
          </button>
        ),
      },
      { accessorKey: 'asked', header: t('asked') },
      { accessorKey: 'agreed', header: t('agreed') },
      { accessorKey: 'declined', header: t('declined') },
      { accessorKey: 'pending', header: t('pending') },
      { accessorKey: 'lapsed', header: t('lapsed') },
    ],
    [t],
  );
  const answerColumns = useMemo<ColumnDef<Answer>[]>(
    () => [
      {
        id: 'subscriber',
        header: t('subscriber'),
        cell: ({ row }) => <Link href={`/customers/${row.original.accountId}`}>{row.original.accountId}</Link>,
      },
      { id: 'answer', header: t('answer'), cell: ({ row }) => t(row.original.answer) },
      {
        id: 'prices',
        header: t('prices'),
        cell: ({ row }) => `${row.original.previousPrice} → ${row.original.newPrice} ${row.original.currency}`,
      },
      { accessorKey: 'changesAt', header: t('changesAt') },
      { accessorKey: 'answeredAt', header: t('answeredAt') },
      { accessorKey: 'remindedAt', header: t('remindedAt') },
    ],
    [t],
  );
  return (
    <section>
      <h1>{t('heading')}</h1>
      {rises.isError ? <p role="alert">{t('failed')}</p> : null}
      {rises.data && rises.data.length === 0 ? <p>{t('none')}</p> : null}
      {rises.data && rises.data.length > 0 ? (
        <DataTable data={rises.data} columns={riseColumns} label={t('heading')} />
      ) : null}
      {answers.data ? (
        <>
          <h2>
            {t('version')} {answers.data.catalogueVersion}
          </h2>
          <DataTable data={answers.data.answers} columns={answerColumns} label={t('answer')} />
        </>
      ) : null}
    </section>
  );
}
