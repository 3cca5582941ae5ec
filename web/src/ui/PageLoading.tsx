import { useShellT } from '../i18n/useT';
import './PageLoading.css';

/** Full-page loading view, shown while a page's code or data loads. */
export function PageLoading() {
  const t = useShellT();
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="page-loading__spinner" aria-hidden="true" />
      <p className="page-loading__text">{t.common.loadingPage}</p>
    </div>
  );
}
