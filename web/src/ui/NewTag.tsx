import { useShellT } from '../i18n/useT';
import './NewTag.css';

/** The small 'New' tag a navigation link may carry (spec section 2, "Layout"). */
export function NewTag() {
  const t = useShellT();
  // The space keeps the tag a separate word in the link's accessible name ("Purchase New").
  return (
    <>
      {' '}
      <span className="new-tag">{t.common.newTag}</span>
    </>
  );
}
