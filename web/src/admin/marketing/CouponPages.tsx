/**
 * Coupon groups: the list (with redemptions and revenue given away), a new group with every field of the spec, and
 * a group's page (its rules to change, disable at once, more private codes, the CSV export, codes and redemptions).
 * The API decides what is allowed; this page sends what the member typed and shows what the API answers.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { DataTable } from '../DataTable';
import {
  type CouponCode,
  type CouponGroup,
  type CouponGroupRow,
  type Redemption,
  type Totals,
  changeGroup,
  codesCsvUrl,
  countryList,
  createGroup,
  disableGroup,
  fromKstInput,
  getGroup,
  issueCodes,
  listGroups,
  toKstInput,
} from './api';
import { type MarketingKey, useMarketingT } from './i18n';

export function Outcome({ error, done }: { error: unknown; done: boolean }) {
  const t = useMarketingT();
  if (error) return <p role="alert">{`${t('failed')}: ${error instanceof Error ? error.message : String(error)}`}</p>;
  return done ? <p role="status">{t('done')}</p> : null;
}

/** A change: on success every marketing query is read again. */
export function useChange<T, V>(run: (value: V) => Promise<T>, onDone?: (answer: T) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (answer) => {
      void client.invalidateQueries({ predicate: (query) => query.queryKey[0] === 'marketing' });
      onDone?.(answer);
    },
  });
}

export function percent(factor: string | number): string {
  return `${Math.round(Number(factor) * 10000) / 100}%`;
}

export function totalsText(totals: Totals[]): string {
  return totals.map((item) => `${item.givenAway.toLocaleString('en-US')} ${item.currency}`).join(', ') || '0';
}

function windowText(group: CouponGroup, none: string): string {
  return `${group.startAt ? toKstInput(group.startAt).replace('T', ' ') : none} – ${group.expAt ? toKstInput(group.expAt).replace('T', ' ') : none}`;
}

interface GroupFields {
  name: string;
  couponGroupType: string;
  constraintType: string;
  countries: string;
  applyDefaultCountry: boolean;
  availableDuration: string;
  startAt: string;
  expAt: string;
  factor: string;
  operator: string;
  subIssuedCount: string;
  issuedCount: string;
  code: string;
}

const EMPTY_GROUP: GroupFields = {
  name: '',
  couponGroupType: 'public',
  constraintType: 'none',
  countries: '',
  applyDefaultCountry: false,
  availableDuration: '0',
  startAt: '',
  expAt: '',
  factor: '',
  operator: 'multiply',
  subIssuedCount: '4294967295',
  issuedCount: '1',
  code: '',
};

function fieldsOf(group: CouponGroup): GroupFields {
  return {
    name: group.name,
    couponGroupType: group.couponGroupType,
    constraintType: group.constraintType,
    countries: group.countries.join(', '),
    applyDefaultCountry: group.applyDefaultCountry,
    availableDuration: String(group.availableDuration),
    startAt: toKstInput(group.startAt),
    expAt: toKstInput(group.expAt),
    factor: String(group.factor),
    operator: group.operator,
    subIssuedCount: String(group.subIssuedCount),
    issuedCount: String(group.issuedCount),
    code: '',
  };
}

function bodyOf(fields: GroupFields, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: fields.name,
    constraintType: fields.constraintType,
    countries: countryList(fields.countries),
    applyDefaultCountry: fields.applyDefaultCountry,
    availableDuration: Number(fields.availableDuration || 0),
    startAt: fromKstInput(fields.startAt),
    expAt: fromKstInput(fields.expAt),
    factor: fields.factor,
    operator: fields.operator,
    subIssuedCount: Number(fields.subIssuedCount || 1),
    issuedCount: Number(fields.issuedCount || 1),
  };
  if (creating) {
    body.couponGroupType = fields.couponGroupType;
    if (fields.couponGroupType === 'public' && fields.code.trim()) body.code = fields.code.trim();
  }
  return body;
}

/** Every field of a coupon group (spec: couponGroup); the type and a public group's code only when creating. */
function GroupForm({
  initial,
  creating,
  submitLabel,
  onSubmit,
}: {
  initial: GroupFields;
  creating: boolean;
  submitLabel: MarketingKey;
  onSubmit: (body: Record<string, unknown>, reason: string) => void;
}) {
  const t = useMarketingT();
  const [fields, setFields] = useState(initial);
  const [reason, setReason] = useState('');
  const set = (key: keyof GroupFields) => (event: { target: HTMLInputElement | HTMLSelectElement }) =>
    setFields({ ...fields, [key]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(bodyOf(fields, creating), reason);
  };
  return (
    <form onSubmit={submit} className="marketing-form" aria-label={t(submitLabel)}>
      <label>
        {t('name')} <input required maxLength={100} value={fields.name} onChange={set('name')} />
      </label>
      <label>
        {t('groupType')}{' '}
        <select value={fields.couponGroupType} onChange={set('couponGroupType')} disabled={!creating}>
          <option value="public">{t('public')}</option>
          <option value="private">{t('private')}</option>
        </select>
      </label>
      {creating && fields.couponGroupType === 'public' ? (
        <label>
          {t('code')} <input maxLength={50} value={fields.code} onChange={set('code')} placeholder="default" />
        </label>
      ) : null}
      <label>
        {t('constraint')}{' '}
        <select value={fields.constraintType} onChange={set('constraintType')}>
          <option value="none">{t('constraintNone')}</option>
          <option value="account">{t('constraintAccount')}</option>
          <option value="userlicense">{t('constraintLicence')}</option>
        </select>
      </label>
      <label>
        {t('countries')} <input value={fields.countries} onChange={set('countries')} placeholder="KR, JP" />
      </label>
      <label>
        <input
          type="checkbox"
          checked={fields.applyDefaultCountry}
          onChange={(event) => setFields({ ...fields, applyDefaultCountry: event.target.checked })}
        />{' '}
        {t('applyDefaultCountry')}
      </label>
      <label>
        {t('duration')} <input inputMode="numeric" value={fields.availableDuration} onChange={set('availableDuration')} />
      </label>
      <label>
        {t('startAt')} <input type="datetime-local" value={fields.startAt} onChange={set('startAt')} />
      </label>
      <label>
        {t('expAt')} <input type="datetime-local" value={fields.expAt} onChange={set('expAt')} />
      </label>
      <label>
        {t('factor')} <input required inputMode="decimal" value={fields.factor} onChange={set('factor')} />
      </label>
      <label>
        {t('operator')}{' '}
        <select value={fields.operator} onChange={set('operator')}>
          <option value="multiply">multiply</option>
        </select>
      </label>
      <label>
        {t('subIssuedCount')} <input inputMode="numeric" value={fields.subIssuedCount} onChange={set('subIssuedCount')} />
      </label>
      {fields.couponGroupType === 'private' ? (
        <label>
          {t('issuedCount')} <input inputMode="numeric" value={fields.issuedCount} onChange={set('issuedCount')} />
        </label>
      ) : null}
      <label>
        {t('reason')} <input required maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      <button type="submit">{t(submitLabel)}</button>
    </form>
  );
}

export function CouponGroupsPage() {
  const t = useMarketingT();
  const [, navigate] = useLocation();
  const groups = useQuery({ queryKey: ['marketing', 'groups'], queryFn: listGroups });
  const create = useChange(
    ({ body, reason }: { body: Record<string, unknown>; reason: string }) => createGroup({ ...body, reason }),
    (page) => navigate(`/marketing/coupons/${page.couponGroup.id}`),
  );
  const columns = useMemo<ColumnDef<CouponGroupRow>[]>(
    () => [
      { id: 'name', header: t('name'), accessorFn: (row) => row.couponGroup.name },
      { id: 'type', header: t('groupType'), accessorFn: (row) => t(row.couponGroup.couponGroupType === 'private' ? 'private' : 'public') },
      { id: 'factor', header: t('factor'), accessorFn: (row) => percent(row.couponGroup.factor) },
      { id: 'window', header: t('window'), accessorFn: (row) => windowText(row.couponGroup, '—') },
      { id: 'countries', header: t('countries'), accessorFn: (row) => row.couponGroup.countries.join(', ') },
      { id: 'state', header: t('state'), accessorFn: (row) => t(row.couponGroup.enabled ? 'enabled' : 'disabled') },
      { accessorKey: 'codes', header: t('codes') },
      { id: 'redemptions', header: t('redemptions'), accessorFn: (row) => row.totals.reduce((sum, item) => sum + item.redemptions, 0) },
      { id: 'givenAway', header: t('givenAway'), accessorFn: (row) => totalsText(row.totals) },
      {
        id: 'open',
        header: '',
        cell: ({ row }) => (
          <Link href={`/marketing/coupons/${row.original.couponGroup.id}`}>{`${t('open')} ${row.original.couponGroup.name}`}</Link>
        ),
      },
    ],
    [t],
  );
  return (
    <section>
      <h1>{t('couponGroups')}</h1>
      <DataTable data={groups.data ?? []} columns={columns} label={t('couponGroups')} />
      <Outcome error={groups.error} done={false} />
      <h2>{t('newGroup')}</h2>
      <GroupForm initial={EMPTY_GROUP} creating submitLabel="create" onSubmit={(body, reason) => create.mutate({ body, reason })} />
      <Outcome error={create.error} done={false} />
    </section>
  );
}

export function CouponGroupDetail() {
  const t = useMarketingT();
  const { groupId } = useParams<{ groupId: string }>();
  const page = useQuery({ queryKey: ['marketing', 'group', groupId], queryFn: () => getGroup(groupId) });
  const [reason, setReason] = useState('');
  const [count, setCount] = useState('10');
  const change = useChange(({ body, reason: why }: { body: Record<string, unknown>; reason: string }) =>
    changeGroup(groupId, { ...body, reason: why }),
  );
  const disable = useChange(() => disableGroup(groupId, reason));
  const issue = useChange(() => issueCodes(groupId, Number(count), reason));
  const codeColumns = useMemo<ColumnDef<CouponCode>[]>(
    () => [
      { accessorKey: 'code', header: t('code') },
      { accessorKey: 'used', header: t('used') },
      { accessorKey: 'issuedAt', header: t('issuedAt') },
    ],
    [t],
  );
  const redemptionColumns = useMemo<ColumnDef<Redemption>[]>(
    () => [
      { accessorKey: 'code', header: t('code') },
      { accessorKey: 'buyerEmail', header: t('buyer') },
      { accessorKey: 'redeemedAt', header: t('redeemedAt') },
      { accessorKey: 'merchantUid', header: t('payment') },
      { id: 'amount', header: t('amount'), accessorFn: (row) => `${row.amount ?? ''} ${row.currency ?? ''}` },
      { id: 'givenAway', header: t('givenAway'), accessorFn: (row) => `${row.givenAway ?? ''} ${row.currency ?? ''}` },
      { accessorKey: 'payMethod', header: t('payMethod') },
      { accessorKey: 'state', header: t('state') },
    ],
    [t],
  );
  const data = page.data;
  if (!data) return <Outcome error={page.error} done={false} />;
  const group = data.couponGroup;
  return (
    <section>
      <h1>{group.name}</h1>
      <p>
        {t(group.couponGroupType === 'private' ? 'private' : 'public')} — {percent(group.factor)} —{' '}
        {t(group.enabled ? 'enabled' : 'disabled')} — {windowText(group, t('none'))}
      </p>
      <h2>{t('totals')}</h2>
      <p aria-label={t('givenAway')}>{`${t('givenAway')}: ${totalsText(data.totals)}`}</p>
      <label>
        {t('reason')} <input maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>{' '}
      {group.enabled ? (
        <button type="button" onClick={() => disable.mutate(undefined)}>
          {t('disable')}
        </button>
      ) : null}
      <Outcome error={disable.error} done={disable.isSuccess} />
      {group.couponGroupType === 'private' ? (
        <p>
          <label>
            {t('count')} <input inputMode="numeric" value={count} onChange={(event) => setCount(event.target.value)} />
          </label>{' '}
          <button type="button" onClick={() => issue.mutate(undefined)}>
            {t('issueMore')}
          </button>
          <Outcome error={issue.error} done={issue.isSuccess} />
        </p>
      ) : null}
      <p>
        <a href={codesCsvUrl(groupId)} download>
          {t('exportCsv')}
        </a>
      </p>
      <h2>{t('redemptions')}</h2>
      <DataTable data={data.redemptions} columns={redemptionColumns} label={t('redemptions')} />
      <h2>{t('codes')}</h2>
      <DataTable data={data.codes} columns={codeColumns} label={t('codes')} />
      <h2>{t('save')}</h2>
      <GroupForm
        key={JSON.stringify(group)}
        initial={fieldsOf(group)}
        creating={false}
        submitLabel="save"
        onSubmit={(body, why) => change.mutate({ body, reason: why })}
      />
      <Outcome error={change.error} done={change.isSuccess} />
    </section>
  );
}
