/**
 * The back office: sign-in (passkey, or a one-time code), customers (search, page, actions), refund requests and
 * staff. Server data through @tanstack/react-query; what a member may do comes from the API (their permissions).
 */
import { QueryCache, QueryClient, QueryClientProvider, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ColumnDef } from '@tanstack/react-table';
import { type FormEvent, Suspense, lazy, useMemo, useState } from 'react';
import { Link, Route, Router, Switch, useLocation, useParams, useSearch } from 'wouter';
import {
  type CustomerFound,
  type CustomerPage,
  type Invited,
  type Member,
  type GatewayRefund,
  type GrantOut,
  type RefundOut,
  type RefundRequest,
  type SignedIn,
  StaffApiError,
  staffCall,
} from './api';
import { CatalogueNavLink, CataloguePage } from './catalogue/CataloguePage';
import { DataTable } from './DataTable';
import CancellationReasons from './exit/CancellationReasons';
import PriceRisesPage from './price-rises/PriceRisesPage';
import { usePriceRiseT } from './price-rises/i18n';
import { useExitT } from './exit/i18n';
import { AlarmBanner } from './finance/AlarmBanner';
import { ADMIN_LANGUAGES, type AdminLanguage, LanguageContext, initialLanguage, useT } from './i18n';
import { enrolWithPasskey, may, signInWithPasskey, stepUpWithPasskey } from './passkeys';
import { useTaxInvoicesT } from './papers/i18n';
import { TaxInvoicesPage } from './papers/TaxInvoices';
import { Flags, ResendLicenceKey, Timeline } from './support/CustomerExtras';
import { PaymentRefund, type RefundAsked } from './support/PaymentRefund';
import { GrantRequestsNavLink, GrantRequestsPage } from './support/GrantRequests';
import { ReportsNavLink, ReportsPage } from './support/Reports';
import { BannersRoute, CouponGroupRoute, CouponGroupsRoute, MarketingNav } from './marketing/routes';

/** Set when an open session stopped working (signed out elsewhere, idle, suspended): the sign-in page says so. */
let sessionEnded = false;

/** Finance's pages, in a chunk of their own (Chart.js with them). */
const FinanceArea = lazy(() => import('./finance/FinanceArea'));

/** A 401 on any call: the session is over; forget who was signed in (the shell shows the sign-in page). */
function endedOn(error: unknown): void {
  if (error instanceof StaffApiError && error.status === 401 && queryClient.getQueryData(['me'])) {
    sessionEnded = true;
    void queryClient.resetQueries({ queryKey: ['me'] });
  }
}

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, staleTime: 0 } },
  queryCache: new QueryCache({ onError: endedOn }),
});

function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => staffCall<SignedIn>('GET', '/me') });
}

/** A change that may end the session: a 401 sends the member back to sign in. */
function useAction<T, V>(run: (value: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onError: endedOn,
    onSuccess: () => void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'me' }),
  });
}

/** Money moves only after a recent proof: step up with the passkey first when the last one is too old. */
async function withStepUp<T>(me: SignedIn | undefined, run: () => Promise<T>): Promise<T> {
  const fresh = me && new Date(me.steppedUpUntil).getTime() - Date.now() > 15_000;
  if (!fresh) {
    const proved = await stepUpWithPasskey();
    queryClient.setQueryData(['me'], proved);
  }
  return run();
}

function Outcome({ error, done }: { error: unknown; done: boolean }) {
  const t = useT();
  if (error) return <p role="alert">{`${t('failed')}: ${error instanceof Error ? error.message : String(error)}`}</p>;
  return done ? <p role="status">{t('done')}</p> : null;
}

function SignInPage() {
  const t = useT();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const signedIn = (answer: SignedIn) => {
    sessionEnded = false;
    client.setQueryData(['me'], answer);
  };
  const passkey = async () => {
    try {
      signedIn(await signInWithPasskey(email));
    } catch (failure) {
      setError(failure);
    }
  };
  const withCode = async (event: FormEvent) => {
    event.preventDefault();
    try {
      signedIn(await staffCall<SignedIn>('POST', '/sign-in/totp', { email, code }));
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section>
      <h1>{t('signIn')}</h1>
      {sessionEnded ? <p role="alert">{t('sessionEnded')}</p> : null}
      <label>
        {t('email')} <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
      </label>
      <button type="button" onClick={() => void passkey()}>
        {t('signInWithPasskey')}
      </button>
      <form onSubmit={(event) => void withCode(event)}>
        <label>
          {t('code')} <input inputMode="numeric" value={code} onChange={(event) => setCode(event.target.value)} />
        </label>
        <button type="submit">{t('signInWithCode')}</button>
      </form>
      <Outcome error={error} done={false} />
    </section>
  );
}

function EnrolPage() {
  const t = useT();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [error, setError] = useState<unknown>(null);
  const register = async () => {
    try {
      client.setQueryData(['me'], await enrolWithPasskey(token));
      navigate('/customers');
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section>
      <h1>{t('enrolTitle')}</h1>
      <button type="button" onClick={() => void register()}>
        {t('registerPasskey')}
      </button>
      <Outcome error={error} done={false} />
    </section>
  );
}

function CustomersPage() {
  const t = useT();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const found = useQuery({
    queryKey: ['customers', query],
    queryFn: () => staffCall<CustomerFound[]>('GET', `/customers?q=${encodeURIComponent(query)}`),
    enabled: query.length > 0,
  });
  const columns = useMemo<ColumnDef<CustomerFound>[]>(
    () => [
      { accessorKey: 'email', header: t('email') },
      { accessorKey: 'name', header: t('name') },
      { accessorKey: 'matched', header: t('matched') },
      {
        id: 'open',
        header: '',
        cell: ({ row }) => <Link href={`/customers/${row.original.accountId}`}>{`${t('open')} ${row.original.email}`}</Link>,
      },
    ],
    [t],
  );
  return (
    <section>
      <h1>{t('customers')}</h1>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(text.trim());
        }}
      >
        <input aria-label={t('searchHint')} placeholder={t('searchHint')} value={text} onChange={(event) => setText(event.target.value)} size={48} />
        <button type="submit">{t('search')}</button>
      </form>
      {found.data && found.data.length === 0 ? <p>{t('noResults')}</p> : null}
      {found.data && found.data.length > 0 ? <DataTable data={found.data} columns={columns} label={t('customers')} /> : null}
      <Outcome error={found.error} done={false} />
    </section>
  );
}

type Row = Record<string, unknown>;

function CustomerDetail() {
  const t = useT();
  const { accountId } = useParams<{ accountId: string }>();
  const me = useMe();
  const page = useQuery({ queryKey: ['customer', accountId], queryFn: () => staffCall<CustomerPage>('GET', `/customers/${accountId}`) });
  const [reason, setReason] = useState('');
  const [last, setLast] = useState<RefundOut | null>(null);
  const free = useAction(({ licence, device }: { licence: string; device: string }) =>
    staffCall<void>('POST', `/licences/${licence}/devices/${encodeURIComponent(device)}/free`, { reason }),
  );
  const refund = useAction(({ merchantUid, amount, licenceEffect }: RefundAsked) =>
    withStepUp(me.data, () =>
      staffCall<RefundOut>('POST', `/payments/${merchantUid}/refund`, { amount, reason, licenceEffect }),
    ).then((out) => {
      setLast(out);
      return out;
    }),
  );
  const gatewayRefund = useAction((merchantUid: string) =>
    withStepUp(me.data, () => staffCall<GatewayRefund>('POST', `/payments/${merchantUid}/gateway-refund`, { reason })),
  );
  const renewal = useAction(({ subscription, action }: { subscription: string; action: 'cancel' | 'resume' }) =>
    staffCall<void>('POST', `/subscriptions/${subscription}/${action}`, { reason }),
  );
  const [apple, setApple] = useState({ licenceId: '', appleTransactionId: '', countryCode: 'KR' });
  const recordApple = useAction(() =>
    withStepUp(me.data, () =>
      staffCall<GrantOut>('POST', `/customers/${accountId}/app-store-purchases`, {
        licenceId: Number(apple.licenceId),
        appleTransactionId: apple.appleTransactionId,
        countryCode: apple.countryCode,
        reason,
      }),
    ),
  );
  const resend = useAction((merchantUid: string) =>
    staffCall<void>('POST', `/payments/${merchantUid}/resend-receipt`, { reason }),
  );
  const data = page.data;
  if (!data) return <Outcome error={page.error} done={false} />;
  const member = me.data?.member;
  return (
    <section>
      <h1>{String(data.account.email)}</h1>
      <label>
        {t('reason')} <input value={reason} onChange={(event) => setReason(event.target.value)} size={40} />
      </label>
      <Flags flags={data.flags} />
      <h2>{t('licences')}</h2>
      {data.licences.map((licence: Row) => (
        <article key={String(licence.user_licence_id)} aria-label={String(licence.licence_key)}>
          <p>
            {String(licence.name)} — {String(licence.licence_key)} — {String(licence.state)}{' '}
            {may(member, 'help-customers') ? (
              <ResendLicenceKey licenceId={String(licence.user_licence_id)} licenceKey={String(licence.licence_key)} reason={reason} />
            ) : null}
          </p>
          <ul aria-label={t('devices')}>
            {((licence.devices as Row[] | undefined) ?? []).map((device) => (
              <li key={String(device.device_id)}>
                {String(device.device_name)} ({String(device.device_id)}){' '}
                {may(member, 'help-customers') ? (
                  <button
                    type="button"
                    onClick={() => free.mutate({ licence: String(licence.user_licence_id), device: String(device.device_id) })}
                  >
                    {`${t('freeDevice')}: ${String(device.device_id)}`}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </article>
      ))}
      <Outcome error={free.error} done={free.isSuccess} />
      {may(member, 'grant-licences') ? (
        <form
          aria-label={t('appStorePurchase')}
          onSubmit={(event) => {
            event.preventDefault();
            recordApple.mutate(undefined);
          }}
        >
          <h2>{t('appStorePurchase')}</h2>
          <label>
            {t('catalogueLicence')}{' '}
            <input inputMode="numeric" value={apple.licenceId} onChange={(event) => setApple({ ...apple, licenceId: event.target.value })} />
          </label>{' '}
          <label>
            {t('appleTransactionId')}{' '}
            <input value={apple.appleTransactionId} onChange={(event) => setApple({ ...apple, appleTransactionId: event.target.value })} />
          </label>{' '}
          <label>
            {t('country')}{' '}
            <input value={apple.countryCode} maxLength={2} size={3} onChange={(event) => setApple({ ...apple, countryCode: event.target.value })} />
          </label>{' '}
          <button type="submit">{t('record')}</button>
          {recordApple.data ? (
            <p role="status">
              {recordApple.data.state === 'waiting'
                ? t('waitingApproval')
                : `${recordApple.data.merchantUid ?? ''}: ${recordApple.data.licenceKey ?? ''}`}
            </p>
          ) : null}
          <Outcome error={recordApple.error} done={false} />
        </form>
      ) : null}
      <h2>{t('subscriptions')}</h2>
      {data.subscriptions.map((subscription: Row) => {
        const id = String(subscription.subscription_id);
        const status = String(subscription.status);
        return (
          <article key={id} aria-label={id}>
            <p>
              {String(subscription.name)} — {status} — {t('paidUntil')} {String(subscription.paid_until)}
            </p>
            {may(member, 'change-licences') && status === 'active' ? (
              <button type="button" onClick={() => renewal.mutate({ subscription: id, action: 'cancel' })}>
                {`${t('cancelRenewal')} ${String(subscription.name)}`}
              </button>
            ) : null}
            {may(member, 'change-licences') && status === 'cancelled' ? (
              <button type="button" onClick={() => renewal.mutate({ subscription: id, action: 'resume' })}>
                {`${t('resumeRenewal')} ${String(subscription.name)}`}
              </button>
            ) : null}
          </article>
        );
      })}
      <Outcome error={renewal.error} done={renewal.isSuccess} />
      <h2>{t('payments')}</h2>
      {data.payments.map((payment: Row) => {
        const merchantUid = String(payment.merchant_uid);
        const left = Number(payment.amount) - Number(payment.cancel_amount);
        return (
          <article key={merchantUid} aria-label={merchantUid}>
            <p>
              {merchantUid} — {String(payment.name)} — {t('amount')} {String(payment.amount)} {String(payment.currency)} —{' '}
              {t('refundable')} {left}
            </p>
            {may(member, 'help-customers') && payment.state === 'paid' ? (
              <button type="button" onClick={() => resend.mutate(merchantUid)}>
                {`${t('resendReceipt')} ${merchantUid}`}
              </button>
            ) : null}
            {may(member, 'refund') && left > 0 ? (
              <PaymentRefund
                merchantUid={merchantUid}
                currency={String(payment.currency)}
                refund={(asked) => refund.mutate(asked)}
                recordGatewayRefund={(uid) => gatewayRefund.mutate(uid)}
              />
            ) : null}
          </article>
        );
      })}
      <Outcome error={resend.error} done={resend.isSuccess} />
      {last ? (
        <p role="status">
          {last.state === 'waiting'
            ? t('waitingApproval')
            : last.state === 'pending'
              ? t('refundPending')
              : `${t('refunded')}: ${last.refunded}`}
        </p>
      ) : null}
      <Outcome error={refund.error} done={false} />
      {gatewayRefund.data ? <p role="status">{`${t('gatewayRefundRecorded')}: ${gatewayRefund.data.recorded}`}</p> : null}
      <Outcome error={gatewayRefund.error} done={false} />
      <h2>{t('timeline')}</h2>
      <Timeline entries={data.timeline} label={t('timeline')} />
    </section>
  );
}

function RefundRequestsPage() {
  const t = useT();
  const me = useMe();
  const [reason, setReason] = useState('');
  const requests = useQuery({ queryKey: ['refund-requests'], queryFn: () => staffCall<RefundRequest[]>('GET', '/refund-requests?state=waiting') });
  const approve = useAction((requestId: string) =>
    withStepUp(me.data, () => staffCall<RefundOut>('POST', `/refund-requests/${requestId}/approve`, { reason })),
  );
  const columns = useMemo<ColumnDef<RefundRequest>[]>(
    () => [
      { accessorKey: 'merchantUid', header: 'merchantUid' },
      { accessorKey: 'amount', header: t('amount') },
      { accessorKey: 'currency', header: '' },
      { accessorKey: 'reason', header: t('reason') },
      { accessorKey: 'source', header: '' },
      {
        id: 'approve',
        header: '',
        cell: ({ row }) => (
          <button type="button" onClick={() => approve.mutate(row.original.requestId)}>
            {`${t('approve')} ${row.original.merchantUid}`}
          </button>
        ),
      },
    ],
    [t, approve],
  );
  return (
    <section>
      <h1>{t('refundRequests')}</h1>
      <label>
        {t('reason')} <input value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      <DataTable data={requests.data ?? []} columns={columns} label={t('refundRequests')} />
      <Outcome error={approve.error ?? requests.error} done={approve.isSuccess} />
    </section>
  );
}

function StaffPage() {
  const t = useT();
  const members = useQuery({ queryKey: ['members'], queryFn: () => staffCall<Member[]>('GET', '/members') });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('support');
  const [link, setLink] = useState('');
  const invite = useAction(() =>
    staffCall<Invited>('POST', '/members', { email, name, roles: [role], reason: 'invited' }).then((invited) => {
      setLink(invited.enrolmentLink);
      return invited;
    }),
  );
  const suspend = useAction((memberId: string) => staffCall<Member>('POST', `/members/${memberId}/suspend`, { reason: 'suspended' }));
  return (
    <section>
      <h1>{t('staff')}</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setLink('');
          invite.mutate(undefined);
        }}
      >
        <label>
          {t('email')} <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          {t('name')} <input value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          {t('roles')}{' '}
          <select value={role} onChange={(event) => setRole(event.target.value)}>
            {['support', 'finance', 'marketing', 'owner'].map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
        <button type="submit">{t('invite')}</button>
      </form>
      {link ? (
        <p>
          {t('enrolmentLink')}: <a href={link}>{link}</a>
        </p>
      ) : null}
      <Outcome error={invite.error ?? suspend.error} done={false} />
      <ul aria-label={t('staff')}>
        {(members.data ?? []).map((member) => (
          <li key={member.id}>
            {member.email} — {member.roles.join(', ')} — {member.state}{' '}
            {member.state === 'active' ? (
              <button type="button" onClick={() => suspend.mutate(member.id)}>
                {`${t('suspend')} ${member.email}`}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Shell({ language, setLanguage }: { language: AdminLanguage; setLanguage: (language: AdminLanguage) => void }) {
  const t = useT();
  const papersT = useTaxInvoicesT();
  const me = useMe();
  const exitT = useExitT();
  const priceRiseT = usePriceRiseT();
  const client = useQueryClient();
  const [location] = useLocation();
  const member = me.data?.member;
  const signOut = async () => {
    await staffCall<void>('POST', '/sign-out').catch(() => undefined);
    client.removeQueries();
    void client.invalidateQueries({ queryKey: ['me'] });
  };
  return (
    <div className="admin-shell">
      <header>
        <strong>{t('title')}</strong>
        {member ? (
          <nav>
            <Link href="/customers">{t('customers')}</Link> <Link href="/refund-requests">{t('refundRequests')}</Link>{' '}
            <GrantRequestsNavLink />{' '}
            {may(member, 'manage-staff') ? <Link href="/staff">{t('staff')}</Link> : null}{' '}
            {may(member, 'read-ledger') ? <Link href="/tax-invoices">{papersT('taxInvoices')}</Link> : null}{' '}
            {may(member, 'read-ledger') ? <Link href="/cancellation-reasons">{exitT('nav')}</Link> : null}{' '}
            <ReportsNavLink />{' '}
            {may(member, 'read-ledger') ? <Link href="/finance">{t('finance')}</Link> : null}{' '}
            <MarketingNav member={member} />{' '}
            {may(member, 'change-prices') ? <CatalogueNavLink /> : null}{' '}
            {may(member, 'read-customers') ? <Link href="/price-rises">{priceRiseT('nav')}</Link> : null}
          </nav>
        ) : null}
        <label>
          {t('language')}{' '}
          <select value={language} onChange={(event) => setLanguage(event.target.value as AdminLanguage)}>
            {ADMIN_LANGUAGES.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
        {member ? (
          <>
            <span>{member.email}</span>
            <button type="button" onClick={() => void signOut()}>
              {t('signOut')}
            </button>
          </>
        ) : null}
      </header>
      {may(member, 'read-ledger') ? <AlarmBanner /> : null}
      <main>
        {location.startsWith('/enrol') ? (
          <EnrolPage />
        ) : !member ? (
          me.isPending ? null : <SignInPage />
        ) : (
          <Switch>
            <Route path="/customers/:accountId" component={CustomerDetail} />
            <Route path="/refund-requests" component={RefundRequestsPage} />
            <Route path="/grant-requests">
              <GrantRequestsPage
                canDecide={may(member, 'approve-grants')}
                stepUp={(run) => withStepUp(me.data, run)}
              />
            </Route>
            <Route path="/reports" component={ReportsPage} />
            <Route path="/staff" component={StaffPage} />
            <Route path="/tax-invoices" component={TaxInvoicesPage} />
            <Route path="/cancellation-reasons" component={CancellationReasons} />
            <Route path="/price-rises" component={PriceRisesPage} />
            <Route path="/finance" nest>
              <Suspense fallback={null}>
                <FinanceArea />
              </Suspense>
            </Route>
            <Route path="/marketing/coupons/:groupId" component={CouponGroupRoute} />
            <Route path="/marketing/coupons" component={CouponGroupsRoute} />
            <Route path="/marketing/banners" component={BannersRoute} />
            <Route path="/catalogue" component={CataloguePage} />
            <Route component={CustomersPage} />
          </Switch>
        )}
      </main>
    </div>
  );
}

export function AdminApp() {
  const [language, setLanguage] = useState<AdminLanguage>(initialLanguage);
  const choose = (next: AdminLanguage) => {
    localStorage.setItem('adminLang', next);
    document.documentElement.lang = next;
    setLanguage(next);
  };
  return (
    <QueryClientProvider client={queryClient}>
      <LanguageContext.Provider value={language}>
        <Router base="/admin">
          <Shell language={language} setLanguage={choose} />
        </Router>
      </LanguageContext.Provider>
    </QueryClientProvider>
  );
}
