/** Finance's pages under /admin/finance (loaded on demand: Chart.js stays out of the back office's first load). */
import { Link, Route, Switch } from 'wouter';
import { AsOfPage } from './AsOfPage';
import { ExportsPage } from './ExportsPage';
import { useFinanceT } from './i18n';
import { IntegrityPage } from './IntegrityPage';
import { PaymentPage } from './PaymentPage';
import { ReconciliationPage } from './ReconciliationPage';
import { RevenuePage } from './RevenuePage';
import { StaffAuditPage } from './StaffAuditPage';
import './finance.css';

export default function FinanceArea() {
  const t = useFinanceT();
  return (
    <div className="finance-area">
      <nav aria-label={t('finance')}>
        <Link href="/">{t('revenue')}</Link> <Link href="/reconciliation">{t('reconciliation')}</Link>{' '}
        <Link href="/integrity">{t('integrity')}</Link> <Link href="/exports">{t('exports')}</Link>{' '}
        <Link href="/as-of">{t('asOf')}</Link> <Link href="/staff-actions">{t('staffAudit')}</Link>
      </nav>
      <Switch>
        <Route path="/payments/:merchantUid" component={PaymentPage} />
        <Route path="/reconciliation" component={ReconciliationPage} />
        <Route path="/integrity" component={IntegrityPage} />
        <Route path="/exports" component={ExportsPage} />
        <Route path="/as-of" component={AsOfPage} />
        <Route path="/staff-actions" component={StaffAuditPage} />
        <Route component={RevenuePage} />
      </Switch>
    </div>
  );
}
