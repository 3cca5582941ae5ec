import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { CompanyBlock } from '../config/integrations';
import { supportSite } from '../config/supportSite';
import { useShellT } from '../i18n/useT';
import { LANGUAGES, type Lang } from '../i18n/languages';
import { useCurrentLocation } from '../routing/location';
import { useLang } from '../routing/useLang';
import { writeLangCookie } from '../session/cookies';
import { usePaths } from '../routing/usePaths';
import { ExternalLink } from '../ui/ExternalLink';
import { fairTradeBusinessPage } from './fairTrade';
import './Footer.css';

function CompanyItem({ label, children }: { label: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <div className="site-footer__company-item">
      <dt>{label}</dt>
      {/* The seller's details as registered, in Korean whatever the page's language. */}
      <dd lang="ko">{children}</dd>
    </div>
  );
}

/** Each language by its own name, marked as being in that language. */
const LANGUAGE_NAMES: Record<Lang, string> = { ko: '한국어', en: 'English', ja: '日本語' };

/** The same page in the other languages; the choice is remembered (langCode cookie) for addresses without one. */
function LanguageSwitcher() {
  const t = useShellT();
  const lang = useLang();
  const { pathname, search, hash } = useCurrentLocation();
  const rest = pathname.replace(/^\/[^/]+/, '');
  return (
    <nav className="site-footer__languages" aria-label={t.footer.languageLabel}>
      <ul>
        {LANGUAGES.map((code) => (
          <li key={code}>
            {code === lang ? (
              <span aria-current="true" lang={code}>
                {LANGUAGE_NAMES[code]}
              </span>
            ) : (
              <Link to={`/${code}${rest}${search}${hash}`} lang={code} hrefLang={code} onClick={() => writeLangCookie(code)}>
                {LANGUAGE_NAMES[code]}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Site footer: links and the company block (the deployment's COMPANY_* settings), what Korea's E-Commerce Act has a
 * store show on its first screen with a link to the Fair Trade Commission's page of the business (docs/legal.md); in
 * Japanese, the link to the 特定商取引法に基づく表記 page. Loaded lazily by the layout.
 */
export default function Footer({ company: seller }: { company: CompanyBlock }) {
  const t = useShellT();
  const lang = useLang();
  const paths = usePaths();
  const links = t.footer.links;
  const company = t.footer.company;
  const businessPage = fairTradeBusinessPage(seller.businessNumberDigits ?? '');

  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label={t.footer.linksLabel}>
          <ul className="site-footer__links">
            <li>
              <Link to={paths.purchase()}>{links.licensePurchase}</Link>
            </li>
            <li>
              <ExternalLink href={supportSite.customerSupport(lang)}>{links.customerSupport}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={supportSite.helpCenter(lang)}>{links.helpCenter}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={supportSite.purchaseRefund(lang)}>{links.purchaseRefund}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={supportSite.community(lang)}>{links.community}</ExternalLink>
            </li>
            <li>
              <Link to={paths.privacyPolicy()} className="site-footer__strong">
                {links.privacyPolicy}
              </Link>
            </li>
            <li>
              <Link to={paths.terms()}>{links.terms}</Link>
            </li>
            <li>
              <Link to={paths.releaseNotes()}>{links.releaseNotes}</Link>
            </li>
            <li>
              <Link to={paths.report()}>{links.reportAds}</Link>
            </li>
            {lang === 'ja' && (
              <li>
                <Link to={paths.tokushoho()} className="site-footer__strong" lang="ja">
                  {links.tokushoho}
                </Link>
              </li>
            )}
          </ul>
        </nav>

        <LanguageSwitcher />

        <section className="site-footer__company" aria-label={t.footer.label}>
          {seller.name && (
            <p className="site-footer__company-name" lang="ko">
              {seller.name}
            </p>
          )}
          <dl className="site-footer__company-details">
            <CompanyItem label={company.representativeLabel}>{seller.representative}</CompanyItem>
            <CompanyItem label={company.addressLabel}>{seller.address}</CompanyItem>
            <CompanyItem label={company.phoneLabel}>{seller.phone}</CompanyItem>
            <CompanyItem label={company.emailLabel}>
              {seller.email && <a href={`mailto:${seller.email}`}>{seller.email}</a>}
            </CompanyItem>
            <CompanyItem label={company.businessNumberLabel}>{seller.businessNumber}</CompanyItem>
            <CompanyItem label={company.salesNumberLabel}>{seller.mailOrderNumber}</CompanyItem>
            <CompanyItem label={company.hostingLabel}>{seller.hostingProvider}</CompanyItem>
          </dl>
          {businessPage && (
            <p className="site-footer__business-info">
              <ExternalLink href={businessPage}>{company.businessInfoLink}</ExternalLink>
            </p>
          )}
          <p className="site-footer__copyright">{company.copyright}</p>
        </section>
      </div>
    </footer>
  );
}
