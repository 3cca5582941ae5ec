import { useT } from '../../i18n/useT';
import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** Placeholder until the feature is built. */
export default function ReleaseNotesPage() {
  const t = useT();
  return <PlaceholderPage heading={t.releaseNotes.heading} />;
}
