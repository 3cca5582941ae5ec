import { Link } from 'wouter';
import { format } from '../../i18n/catalogues';
import { useT } from '../../i18n/useT';
import { useLang } from '../../routing/useLang';
import { usePaths } from '../../routing/usePaths';
import { PageMeta } from '../../ui/PageMeta';
import { policyTexts, type PolicyTexts } from './content';
import './PolicyPage.css';

export type PolicyName = keyof PolicyTexts;

/** Links between the policies, shown under each of them. */
export function PolicyLinks({ current }: { current?: PolicyName }) {
  const t = useT();
  const paths = usePaths();
  const links: { name: PolicyName; to: string; label: string }[] = [
    { name: 'terms', to: paths.terms(), label: t.terms.termsHeading },
    { name: 'lifetime', to: paths.lifetimePolicy(), label: t.terms.lifetimeHeading },
    { name: 'subscription', to: paths.subscriptionPolicy(), label: t.terms.subscriptionHeading },
    { name: 'privacy', to: paths.privacyPolicy(), label: t.terms.privacyHeading },
  ];
  return (
    <nav className="policy-links" aria-label={t.terms.policiesHeading}>
      <ul>
        {links.map((link) => (
          <li key={link.name}>
            <Link to={link.to} aria-current={link.name === current ? 'page' : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A policy document: heading, effective date, contents and sections. */
export function PolicyPage({ name, heading }: { name: PolicyName; heading: string }) {
  const t = useT();
  const lang = useLang();
  const doc = policyTexts[lang][name];
  return (
    <article className="page policy" data-policy={name}>
      <PageMeta title={heading} />
      <h1 className="page__heading">{heading}</h1>
      <p className="policy__updated">{format(t.terms.lastUpdated, { date: doc.updated })}</p>
      <p className="policy__intro">{doc.intro}</p>
      <nav className="policy__toc" aria-label={t.terms.tableOfContents}>
        <ol>
          {doc.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
        </ol>
      </nav>
      {doc.sections.map((section) => (
        <section key={section.id} id={section.id} className="policy__section" aria-labelledby={`${section.id}-heading`}>
          <h2 id={`${section.id}-heading`}>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items && (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <PolicyLinks current={name} />
    </article>
  );
}
