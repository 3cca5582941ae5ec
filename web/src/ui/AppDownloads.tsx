/**
 * Where the customer gets the apps a licence is for (issue 29, finding 11): a link per platform to its store page or
 * installer, as the deployment configures them (APP_DOWNLOAD_*_URL). Shown on the licence page and the
 * purchase-complete page; the account menu's products link to the same addresses. Nothing while the addresses are
 * being read, and no link for a platform without one.
 */
import { APP_PLATFORMS, useAppDownloads } from '../config/useAppDownloads';
import type { AppDownloads as Downloads } from '../config/integrations';
import { format } from '../i18n/catalogues';
import { useT } from '../i18n/useT';
import './kit.css';

export function AppDownloads({ downloads: given }: { downloads?: Downloads } = {}) {
  const t = useT();
  const read = useAppDownloads();
  const downloads = given ?? read;
  const platforms = APP_PLATFORMS.filter((platform) => downloads?.[platform]);
  if (!downloads || platforms.length === 0) return null;
  return (
    <section className="content-section app-downloads" aria-labelledby="app-downloads-heading">
      <h2 id="app-downloads-heading" className="content-section__heading">
        {t.downloads.heading}
      </h2>
      <p className="hint">{t.downloads.lead}</p>
      <ul className="app-downloads__list">
        {platforms.map((platform) => (
          <li key={platform}>
            <a
              className="button button--secondary app-downloads__link"
              href={downloads[platform]}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={format(t.downloads.label, { platform: t.downloads.platforms[platform] })}
              data-platform={platform}
            >
              {t.downloads.platforms[platform]}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
